import type { Route } from './http.js';
import { accountRoutes } from './routes/accounts.js';
import { bankRoutes } from './routes/banks.js';
import { beneficiaryRoutes } from './routes/beneficiaries.js';
import { payerNameRoutes } from './routes/payer-names.js';
import { payoutRoutes } from './routes/payouts.js';
import { transactionRoutes } from './routes/transactions.js';

interface Compiled {
  route: Route;
  regex: RegExp;
  names: string[];
}

function compile(route: Route): Compiled {
  const names: string[] = [];
  const source = route.pattern
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { route, regex: new RegExp(`^${source}$`), names };
}

const COMPILED = [
  ...bankRoutes,
  ...transactionRoutes,
  ...payoutRoutes,
  ...beneficiaryRoutes,
  ...payerNameRoutes,
  ...accountRoutes,
].map(compile);

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The route for `method` and a path relative to the base URL, with its path parameters. */
export function matchRoute(
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  for (const { route, regex, names } of COMPILED) {
    if (route.method !== method) continue;
    const m = regex.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      params[name] = safeDecode(m[i + 1] ?? '');
    });
    return { route, params };
  }
  return undefined;
}
