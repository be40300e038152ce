import type { RouteHandler, RouteSpec, Routes } from './http.js';
import { accountRoutes } from './routes/accounts.js';
import { bankRoutes } from './routes/banks.js';
import { beneficiaryRoutes } from './routes/beneficiaries.js';
import { payerNameRoutes } from './routes/payer-names.js';
import { payoutRoutes } from './routes/payouts.js';
import { transactionRoutes } from './routes/transactions.js';

/** `text` matched literally inside a regular expression. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A route as matched: its handler and switches, with its path parameters. */
export type MatchedRoute = Exclude<RouteSpec, RouteHandler> & { params: Record<string, string> };

const COMPILED = Object.entries({
  ...bankRoutes,
  ...transactionRoutes,
  ...payoutRoutes,
  ...beneficiaryRoutes,
  ...payerNameRoutes,
  ...accountRoutes,
} satisfies Routes).map(([key, spec]) => {
  const [method, pattern = ''] = key.split(' ');
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return escapeRegExp(segment);
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  const route = typeof spec === 'function' ? { handle: spec } : spec;
  return { method, regex: new RegExp(`^${source}$`), names, route };
});

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The route for `method` and a path relative to the base URL, with its path parameters. */
export function matchRoute(method: string, path: string): MatchedRoute | undefined {
  for (const { method: wanted, regex, names, route } of COMPILED) {
    const m = wanted === method ? regex.exec(path) : null;
    if (m)
      return { ...route, params: Object.fromEntries(names.map((name, i) => [name, safeDecode(m[i + 1]!)])) };
  }
  return undefined;
}
