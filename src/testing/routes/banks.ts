import { LOOKUP_MESSAGES } from '../../rules/lookup.js';
import { MockHttpError, type Routes } from '../http.js';
import { BANKS, resolveAccount } from '../seed/reference.js';

/** Stringy body fields: trimmed, and blank counts as absent (as the spec says for POST /lookup). */
function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** GET /banks and POST /lookup (name enquiry; see `resolveAccount` for which accounts resolve). */
export const bankRoutes: Routes = {
  'GET /banks': () => ({
    message: 'Banks retrieved successfully',
    data: { banks: BANKS },
    listKey: 'banks',
  }),
  'POST /lookup': async (ctx) => {
    const body = await ctx.body();
    const bankCode = field(body, 'bankCode');
    const accountNumber = field(body, 'accountNumber');
    const currency = field(body, 'currency');
    if (!bankCode) throw new MockHttpError(400, LOOKUP_MESSAGES.bankCode);
    if (!accountNumber) throw new MockHttpError(400, LOOKUP_MESSAGES.accountNumber);
    if (currency !== undefined && currency !== 'NGN') throw new MockHttpError(400, LOOKUP_MESSAGES.currency);
    const result = resolveAccount(bankCode, accountNumber);
    if (!result) {
      throw new MockHttpError(
        404,
        'Account could not be resolved. Please verify the account number and bank and try again.',
      );
    }
    return { message: 'Account details retrieved successfully', data: result };
  },
};
