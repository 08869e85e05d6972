/** What the matcher needs of a route: its method and its path template under the base. */
export interface MatchableRoute {
  readonly method: string;
  readonly path: string;
}

export interface RouteMatch<R extends MatchableRoute> {
  readonly route: R;
  readonly pathParameters: Record<string, string>;
}

/**
 * Matches a path under the base against catalogued templates. Literal segments beat placeholders (so
 * `/notifications/mark-all-read` is not `/notifications/{id}`), as API Gateway's most-specific-route rule does.
 */
export function createRouteMatcher<R extends MatchableRoute>(routes: readonly R[]) {
  const compiled = routes.map((route) => ({ route, segments: route.path.split('/').filter(Boolean) }));

  function match(method: string, path: string): { found?: RouteMatch<R>; pathExists: boolean } {
    const segments = path.split('/').filter(Boolean);
    let best: { match: RouteMatch<R>; score: number } | undefined;
    let pathExists = false;
    for (const candidate of compiled) {
      if (candidate.segments.length !== segments.length) continue;
      const pathParameters: Record<string, string> = {};
      let score = 0;
      let ok = true;
      for (let i = 0; i < segments.length && ok; i++) {
        const template = candidate.segments[i] as string;
        const actual = segments[i] as string;
        if (template.startsWith('{') && template.endsWith('}')) {
          pathParameters[template.slice(1, -1)] = safeDecode(actual);
        } else if (template === actual) {
          score += 1;
        } else {
          ok = false;
        }
      }
      if (!ok) continue;
      pathExists = true;
      if (candidate.route.method !== method) continue;
      if (!best || score > best.score) best = { match: { route: candidate.route, pathParameters }, score };
    }
    return best ? { found: best.match, pathExists } : { pathExists };
  }

  return { match };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
