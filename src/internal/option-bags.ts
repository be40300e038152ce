import type { ClientOptions, RequestOptions } from './config.js';
import { optionKeys } from './option-keys.js';

/** The keys of the client's own option bags (see option-keys.ts), apart from config.ts to keep it short. */

export const CLIENT_OPTION_KEYS = optionKeys<ClientOptions>()([
  'apiKey baseUrl accountId timeout totalTimeout maxResponseBytes maxRetries fetch headers logger logLevel',
  'allowInsecureHttp dangerouslyAllowBrowser appInfo fetchOptions hooks',
]);

/** The keys of `RequestOptions`, for it and the bags that extend it. */
export const REQUEST_OPTION_KEYS = optionKeys<RequestOptions>()([
  'signal timeout totalTimeout maxResponseBytes maxPages maxRetries headers',
]);
