/*
 * Zod for the server-rendered pages, loaded by boot.ts as a step of its own before the schemas:
 * evaluating it is then a task apart from building them. Jitless, because the pages'
 * Content-Security-Policy forbids eval: zod could never compile its parsers there, and its probe
 * for eval, a `new Function` the browser refuses and reports, cost the first schema built about
 * 4 ms (16 on Lighthouse's phone).
 */
import { config } from 'zod';

config({ jitless: true });
