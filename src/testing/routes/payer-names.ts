import * as z from 'zod/mini';
import type { FieldIssue } from '../../core/error.js';
import { PAYER_NAME_REVIEW_STATUSES, payerNameDocumentIssues } from '../../rules/payer-name.js';
import { fieldIssues } from '../../rules/schema.js';
import {
  MockHttpError,
  pageOf,
  type RouteContext,
  type RouteResult,
  type Routes,
  readPaging,
  validationFailed,
} from '../http.js';
import { APPROVED, assertNameFree, fieldsOf, toInput, viewPayerName } from '../payer-name-store.js';
import type { MockPayerName } from '../types.js';

/** The feature switch, then the name by id; both apply to every payer-name endpoint. */
function guard(ctx: RouteContext): void {
  if (!ctx.account.payerNamesEnabled) {
    throw new MockHttpError(403, 'Payer names are not enabled for this account', {
      code: 'PAYER_NAMES_DISABLED',
    });
  }
}

function find(ctx: RouteContext): MockPayerName {
  guard(ctx);
  const found = ctx.account.payerNames.get((ctx.params.id ?? '').toLowerCase());
  if (!found) throw new MockHttpError(404, 'Payer name not found');
  return found;
}

function answer(ctx: RouteContext, pn: MockPayerName, message: string, status = 200): RouteResult {
  return { status, message, data: viewPayerName(pn, ctx.now) };
}

const FORM_METADATA = 'cannot be sent as multipart/form-data; set it with the update endpoint';

/** Text fields, files and positional labels of a create, JSON or multipart; `metadata` is refused in a form. */
async function readCreate(ctx: RouteContext) {
  const type = ctx.request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/')) return { input: await ctx.body(), files: [], labels: [] };
  const form = await ctx.request.formData().catch(() => {
    throw new MockHttpError(400, 'Invalid multipart body');
  });
  const input: Record<string, unknown> = {};
  const files: File[] = [];
  const labels: string[] = [];
  for (const [key, value] of form.entries()) {
    if (key === 'metadata') throw validationFailed([{ path: ['metadata'], message: FORM_METADATA }]);
    if (key === 'documents' && typeof value !== 'string') files.push(value);
    else if (key === 'documentDescriptions') labels.push(String(value));
    else input[key] = String(value);
  }
  return { input, files, labels };
}

async function create(ctx: RouteContext): Promise<RouteResult> {
  guard(ctx);
  const { input, files, labels } = await readCreate(ctx);
  const issues = payerNameDocumentIssues(files.map((f) => ({ name: f.name, type: f.type, size: f.size })));
  if (ctx.settings.documentsRequired && files.length === 0) {
    issues.push({ path: ['documents'], message: 'at least one document is required for this account' });
  }
  const fields = fieldsOf(input, issues);
  const id = ctx.rng.uuid();
  assertNameFree(ctx.account, fields.name);
  const at = new Date(ctx.now).toISOString();
  const pn: MockPayerName = {
    id,
    ...fields,
    status: ctx.settings.sandbox ? 'active' : 'pending_review',
    isDefault: false,
    decisionNote: null,
    documents: files.map((file, i) => ({
      id: ctx.rng.uuid(),
      fileName: file.name,
      description: labels[i]?.trim() ? (labels[i] as string) : null,
      fileType: file.type || 'application/octet-stream',
      fileSize: file.size,
      createdAt: at,
    })),
    createdAt: at,
    updatedAt: at,
  };
  ctx.account.payerNames.set(pn.id, pn);
  const message = ctx.settings.sandbox ? 'Payer name created' : 'Payer name submitted for review';
  return answer(ctx, pn, message, 201);
}

/** The listing's filters: `status` one of the spec's review statuses. */
const LIST_FILTERS = z.object({
  archived: z.optional(z.enum(['true', 'false'], 'must be true or false')),
  status: z.optional(z.enum(PAYER_NAME_REVIEW_STATUSES)),
});

function list(ctx: RouteContext): RouteResult {
  guard(ctx);
  const errors: FieldIssue[] = [];
  const paging = readPaging(ctx, errors);
  const given = ctx.query.get('archived') ?? undefined;
  const status = ctx.query.get('status') || undefined;
  errors.push(...fieldIssues(LIST_FILTERS, { archived: given, status }));
  if (errors.length) throw validationFailed(errors);
  // "Filters include `archived`": it filters when sent. Without it, archived names are listed too, unless a
  // test invents the service hiding them.
  const archived = given ?? (ctx.settings.invented.hideArchivedPayerNames ? 'false' : undefined);
  const rows = [...ctx.account.payerNames.values()].reverse().filter((pn) => {
    if (archived !== undefined && (pn.status === 'archived') !== (archived === 'true')) return false;
    if (status === undefined) return true;
    return status === 'approved' ? APPROVED.includes(pn.status) : pn.status === status;
  });
  const { rows: shown, counters: c } = pageOf(rows, paging);
  const pagination = { page: c.page, pageSize: c.pageSize, total: c.totalCount, totalPages: c.totalPages };
  return {
    message: 'Payer names retrieved successfully',
    data: { payerNames: shown.map((pn) => viewPayerName(pn, ctx.now)), pagination },
    listKey: 'payerNames',
  };
}

/**
 * Snake_case partial update, validated merged with the stored fields; `metadata: null` or `{}` removes it.
 * Clears `decisionNote`; a `changes_requested` name goes back to `pending_review` (the spec does not say).
 */
async function update(ctx: RouteContext): Promise<RouteResult> {
  const pn = find(ctx);
  if (pn.status === 'archived') throw new MockHttpError(400, 'An archived payer name cannot be updated');
  const body = await ctx.body();
  const merged: Record<string, unknown> = { ...toInput(pn), ...body };
  if (body.metadata === null) delete merged.metadata;
  // Switching to a business drops the stored personal names, unless the body itself sends them.
  if (merged.entity_type === 'business') {
    for (const key of ['first_name', 'last_name']) if (!(key in body)) delete merged[key];
  }
  const fields = fieldsOf(merged);
  assertNameFree(ctx.account, fields.name, pn.id);
  delete pn.metadata;
  Object.assign(pn, fields, {
    decisionNote: null,
    status: pn.status === 'changes_requested' ? 'pending_review' : pn.status,
    updatedAt: new Date(ctx.now).toISOString(),
  });
  return answer(ctx, pn, 'Payer name updated successfully');
}

async function setDefault(ctx: RouteContext): Promise<RouteResult> {
  const pn = find(ctx);
  const isDefault = (await ctx.body()).isDefault ?? true;
  if (typeof isDefault !== 'boolean')
    throw validationFailed([{ path: ['isDefault'], message: 'must be a boolean' }]);
  if (isDefault && !APPROVED.includes(pn.status)) {
    throw new MockHttpError(400, 'Only an approved payer name can be the default');
  }
  const at = new Date(ctx.now).toISOString();
  for (const other of isDefault ? ctx.account.payerNames.values() : []) {
    if (other.isDefault && other.id !== pn.id) Object.assign(other, { isDefault: false, updatedAt: at });
  }
  if (pn.isDefault !== isDefault) Object.assign(pn, { isDefault, updatedAt: at });
  return answer(ctx, pn, 'Default payer name updated');
}

function archive(ctx: RouteContext): RouteResult {
  const pn = find(ctx);
  if (pn.status !== 'archived') {
    Object.assign(pn, { status: 'archived', isDefault: false, updatedAt: new Date(ctx.now).toISOString() });
  }
  return answer(ctx, pn, 'Payer name archived');
}

/** /payer-names: create (JSON or multipart), list, read (invented, off by default), update, default, archive. */
export const payerNameRoutes: Routes = {
  'POST /payer-names': create,
  'GET /payer-names': list,
  // Not in the spec: answered only when a test invents it.
  'GET /payer-names/{id}': {
    enabled: (settings) => settings.invented.getPayerName === true,
    handle: (ctx) => answer(ctx, find(ctx), 'Payer name retrieved successfully'),
  },
  'PATCH /payer-names/{id}': update,
  'PATCH /payer-names/{id}/default': setDefault,
  'DELETE /payer-names/{id}': archive,
};
