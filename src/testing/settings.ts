import type { MockSettings, PaymentsMockOptions } from './types.js';

/** The live settings an options object starts with (and `reset()` restores). */
export function settingsFrom(options: PaymentsMockOptions): MockSettings {
  return {
    sandbox: options.sandbox ?? false,
    envelope: options.envelope ?? 'current',
    dedupeByReference: options.dedupeByReference ?? true,
    assignNgnReferences: options.assignNgnReferences ?? true,
    beneficiaryGracePeriod: options.beneficiaryGracePeriod ?? true,
    documentsRequired: options.documentsRequired ?? false,
    rateLimit: options.rateLimit,
    invented: { ...options.invented },
  };
}
