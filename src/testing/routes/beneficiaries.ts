import { isRecord } from '../../core/values.js';
import { beneficiaryWireIssues, missingClassificationFields } from '../../rules/beneficiary.js';
import { flatList, MockHttpError, type RouteContext, type Routes, validationFailed } from '../http.js';

type Stored = Record<string, unknown>;

function find(ctx: RouteContext): Stored {
  const id = ctx.params.id ?? '';
  const found = ctx.account.beneficiaries.get(id.toLowerCase());
  if (!found) throw new MockHttpError(400, `Beneficiary not found: ${id}`);
  return found;
}

/** Only populated fields are returned, `withdrawal_method` always (null without a rail). */
function view(stored: Stored): Stored {
  const shown = Object.entries(stored).filter(
    ([, value]) => value != null && value !== '' && !(isRecord(value) && Object.keys(value).length === 0),
  );
  return { ...Object.fromEntries(shown), withdrawal_method: stored.withdrawal_method || null };
}

/**
 * Validates `body` as the whole new state (create, or update with the rail already merged in), stores it
 * under `id` (a new one drawn only once it is valid) and answers its view, with the grace-period warning if any.
 */
function save(ctx: RouteContext, body: Stored, id?: string): Stored {
  const grace = ctx.settings.beneficiaryGracePeriod;
  const issues = beneficiaryWireIssues(body, { allowUnclassified: grace });
  if (issues.length) throw validationFailed(issues);
  const stored: Stored = {
    id: id ?? ctx.rng.uuid(),
    ...body,
    withdrawal_method: body.withdrawal_method || null,
  };
  if (typeof stored.account_number === 'string') stored.account_number = stored.account_number.trim();
  ctx.account.beneficiaries.set(id ?? (stored.id as string), stored);
  const missing = grace ? missingClassificationFields(body) : [];
  if (missing.length === 0) return view(stored);
  // "Fields of `deprecation_warning`: not shown": none unless the test invents them.
  const invent = ctx.settings.invented.deprecationWarning;
  return { ...view(stored), deprecation_warning: invent ? invent([...missing]) : {} };
}

async function update(ctx: RouteContext) {
  const current = find(ctx);
  const body = await ctx.body();
  // The body replaces the record whole, except that an omitted rail keeps the stored one.
  const merged =
    'withdrawal_method' in body ? body : { ...body, withdrawal_method: current.withdrawal_method };
  return { message: 'Beneficiary updated successfully', data: save(ctx, merged, current.id as string) };
}

async function create(ctx: RouteContext) {
  return { status: 201, message: 'Beneficiary created successfully', data: save(ctx, await ctx.body()) };
}

function remove(ctx: RouteContext) {
  ctx.account.beneficiaries.delete(find(ctx).id as string);
  return { message: 'Beneficiary deleted successfully', data: {} };
}

/** /beneficiaries: saved payout destinations, validated with the spec's rules (`rules/beneficiary.ts`), the SDK's too. */
export const beneficiaryRoutes: Routes = {
  'POST /beneficiaries': create,
  'GET /beneficiaries': (ctx) => {
    const rows = [...ctx.account.beneficiaries.values()].reverse();
    return flatList(ctx, 'Beneficiaries retrieved successfully', 'beneficiaries', rows, view);
  },
  'GET /beneficiaries/{id}': (ctx) => ({
    message: 'Beneficiary retrieved successfully',
    data: view(find(ctx)),
  }),
  'PATCH /beneficiaries/{id}': update,
  'PUT /beneficiaries/{id}': update,
  'DELETE /beneficiaries/{id}': remove,
};
