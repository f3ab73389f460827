import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A reporter for scripts/vitest-report.sh: vitest's JSON report keeps a test's errors and a
 * file's, but not a describe block's (a beforeAll or afterAll that threw), so a file failed that
 * way read as failed with no reason. This writes each module's and suite's own errors to the JSON
 * file VITEST_HOOK_ERRORS names: { [file path]: ["<suite>: <message>", ...] }.
 */
export default class HookErrors implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const file = process.env.VITEST_HOOK_ERRORS;
    if (!file) return;
    const errors: Record<string, string[]> = {};
    for (const module of testModules) {
      const found = module.errors().map((error) => error.message.trim());
      for (const suite of module.children.allSuites()) {
        for (const error of suite.errors()) found.push(`${suite.fullName}: ${error.message.trim()}`);
      }
      if (found.length > 0) errors[module.moduleId] = found;
    }
    writeFileSync(file, JSON.stringify(errors));
  }
}
