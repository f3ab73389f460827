/** The web client's own lint rules; the root eslint.config.js includes them. */
export default [];
