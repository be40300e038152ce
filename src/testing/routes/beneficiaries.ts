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
  const out: Stored = {};
  for (const [key, value] of Object.entries(stored)) {
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0)
      continue;
    out[key] = structuredClone(value);
  }
  out.withdrawal_method = stored.withdrawal_method || null;
  return out;
}

/**
 * Validates `body` as the whole new state (create, or update with the rail already merged in) and returns the
 * record to store plus the grace-period warning, if any.
 */
function accept(ctx: RouteContext, body: Stored): { record: Stored; warning?: Record<string, unknown> } {
  const grace = ctx.settings.beneficiaryGracePeriod;
  const issues = beneficiaryWireIssues(body, { allowUnclassified: grace });
  if (issues.length) throw validationFailed(issues);
  const record: Stored = { ...body, withdrawal_method: body.withdrawal_method || null };
  if (typeof record.account_number === 'string') record.account_number = record.account_number.trim();
  const missing = grace ? missingClassificationFields(body) : [];
  if (missing.length === 0) return { record };
  // "Fields of `deprecation_warning`: not shown": none unless the test invents them.
  const invent = ctx.settings.invented.deprecationWarning;
  return { record, warning: invent ? invent([...missing]) : {} };
}

function withWarning(stored: Stored, warning: Record<string, unknown> | undefined): Stored {
  return warning ? { ...view(stored), deprecation_warning: warning } : view(stored);
}

async function update(ctx: RouteContext) {
  const current = find(ctx);
  const body = await ctx.body();
  // The body replaces the record whole, except that an omitted rail keeps the stored one.
  const merged =
    'withdrawal_method' in body ? body : { ...body, withdrawal_method: current.withdrawal_method };
  const { record, warning } = accept(ctx, merged);
  const next = { id: current.id, ...record };
  ctx.account.beneficiaries.set(current.id as string, next);
  return { message: 'Beneficiary updated successfully', data: withWarning(next, warning) };
}

async function create(ctx: RouteContext) {
  const { record, warning } = accept(ctx, await ctx.body());
  const stored = { id: ctx.rng.uuid(), ...record };
  ctx.account.beneficiaries.set(stored.id, stored);
  return { status: 201, message: 'Beneficiary created successfully', data: withWarning(stored, warning) };
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
