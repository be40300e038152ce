import { nameClass } from '../core/error.js';
import { PaymentsError } from '../index.js';

/**
 * The store's environment cannot keep a payout safe (a database that replicates asynchronously, a transaction of
 * the caller's open on the store's handle): nothing is wrong with the input, and nothing was sent. `setting`
 * names the option or handle to change; `field` is the same, as `RequestValidationError` names one.
 */
export class OutboxEnvironmentError extends PaymentsError {
  static {
    nameClass(OutboxEnvironmentError, 'OutboxEnvironmentError');
  }
  /** The option or handle to change: `lookupBeforeFirstSend`, `database`. */
  readonly field: string;
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting} ${message}`);
    this.field = setting;
  }
}
