import type { RouteHandler, RouteSpec, Routes } from './http.js';
import { accountRoutes } from './routes/accounts.js';
import { bankRoutes } from './routes/banks.js';
import { beneficiaryRoutes } from './routes/beneficiaries.js';
import { payerNameRoutes } from './routes/payer-names.js';
import { payoutRoutes } from './routes/payouts.js';
import { transactionRoutes } from './routes/transactions.js';

/** `text` matched literally inside a regular expression. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
  const route: Exclude<RouteSpec, RouteHandler> = typeof spec === 'function' ? { handle: spec } : spec;
  return { method, regex: new RegExp(`^${source}$`), names, route };
});

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The route for `method` and a path under the base path: its handler, its switches, its path parameters. */
export function matchRoute(method: string, path: string) {
  for (const { method: wanted, regex, names, route } of COMPILED) {
    const m = wanted === method ? regex.exec(path) : null;
    if (m)
      return { ...route, params: Object.fromEntries(names.map((name, i) => [name, safeDecode(m[i + 1]!)])) };
  }
  return undefined;
}
