/** The contract suite every read-model store adapter must pass; it uses vitest, so only tests import it. */
export * from './store/read-model-store.contract';
