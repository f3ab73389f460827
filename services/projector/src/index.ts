/** The projector's configuration, for the scripts that check what documents it; the process itself is `./main`. */
export { projectorConfigSchema } from './config';
