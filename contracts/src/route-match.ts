import type { RouteDefinition } from './route';
import { apiRouteList, type OperationId } from './routes';

type ListedRoute = RouteDefinition & { operationId: OperationId };

const patterns = apiRouteList.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
}));

/** The declared route a request goes to, or undefined when the table has none. */
export function findRoute(method: string, url: string): ListedRoute | undefined {
  const path = new URL(url, 'http://localhost').pathname;
  const lower = method.toLowerCase();
  return patterns.find(({ route, pattern }) => route.method === lower && pattern.test(path))?.route;
}

/**
 * What is wrong with an answer as the route table declares it, or null when nothing is: its
 * status must be declared, and a JSON body must match that status's schema.
 */
export function answerProblem(
  route: RouteDefinition,
  answer: { status: number; contentType: string | null; body: unknown },
): string | null {
  const declared = route.answers[answer.status];
  const where = `${route.method.toUpperCase()} ${route.path} answered ${answer.status}`;
  if (!declared) return `${where}, which the route table does not declare`;
  if (!declared.schema || !answer.contentType?.includes('application/json')) return null;
  const parsed = declared.schema.safeParse(answer.body);
  if (parsed.success) return null;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  return `${where} with a body its schema refuses: ${issues.join('; ')}`;
}
