import type { TestProject } from 'vitest/node';
import { startApp } from './app-process';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    /** Its data folder: without SMTP_URL, its mail is written there as files. */
    appDataDir: string;
  }
}

/** One running product for every end-to-end file. */
export default async function setup(project: TestProject) {
  const app = await startApp();
  project.provide('appUrl', app.url);
  project.provide('appDataDir', app.dataDir);
  return () => app.stop();
}
