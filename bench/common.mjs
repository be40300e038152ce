// Constants and helpers the bench's parts share.
import { fileURLToPath } from 'node:url';

export const API_KEY = 'sk_bench';
export const HEADERS = { 'X-API-Key': API_KEY, Accept: 'application/json' };
export const LIST_PATH = '/api/v1/external/transactions';
export const MB = 1024 * 1024;

export const here = (path) => fileURLToPath(new URL(path, import.meta.url));
export const fmt = (n, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export function check(ok, what) {
  if (!ok) throw new Error(`bench: unexpected response (${what})`);
}
