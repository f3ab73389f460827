import { createMemoryReadModelStore } from '../src/store/memory-read-model-store';
import { describeReadModelStoreContract } from '../src/store/read-model-store.contract';

describeReadModelStoreContract('memory', createMemoryReadModelStore);
