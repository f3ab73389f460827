/*
 * The API's schemas every server-rendered page parses answers with, loaded by boot.ts in steps
 * of their own before the rest: building zod schemas is a phone's longest work on these pages,
 * and each step is a task of its own. This one: the session's.
 */
export { authSession, me } from '@qrshirt/contracts';
