import { type BeneficiaryInput, PayerNameCreateSchema } from 'payments-service-sdk';
import * as z from 'zod';
import type { ZodMiniType } from 'zod/mini';
import { accountId, registerTool, type ToolContext } from '../context.js';
import { result } from '../format.js';
import { carried } from './read-inputs.js';

/**
 * Record writes, each behind its own start-up switch. The bodies are checked by the SDK itself (its rail rules
 * for beneficiaries, its field rules for payer names): a bad one is a RequestValidationError naming the field.
 */

const body = (what: string) =>
  z
    .record(z.string(), z.unknown())
    .describe(
      `${what}, with the field names of payments-service-sdk (snake_case, as on the wire); checked before sending.`,
    );
// The payer name's fields are the SDK's own (PayerNameCreateSchema), so the host lists them with their types and
// enums. Loose, not stripped: a misspelt field reaches the SDK, which refuses it naming the field, instead of
// being dropped here without a word.
type PayerNameShape = typeof PayerNameCreateSchema.shape;
const payerNameFields = z
  .looseObject(
    Object.fromEntries(
      Object.entries(PayerNameCreateSchema.shape).map(([name, field]) => [name, carried(field)]),
    ) as { [K in keyof PayerNameShape]: ZodMiniType<z.input<PayerNameShape[K]>, z.input<PayerNameShape[K]>> },
  )
  .describe(
    'The payer name, with the field names of payments-service-sdk (snake_case, as on the wire); checked before sending.',
  );
const id = (what: string) => z.string().describe(`The ${what}'s id (a uuid).`);

export function registerBeneficiaryWrites(ctx: ToolContext): void {
  if (!ctx.config.beneficiaryWrites) return;
  const { redact } = ctx;
  registerTool(
    ctx,
    'create_beneficiary',
    {
      title: 'Create a beneficiary',
      description:
        'Saves a beneficiary. Not idempotent: after an unclear failure, look for it with list_beneficiaries before creating it again.',
      inputSchema: {
        beneficiary: body(
          'The beneficiary: currency, account_name, withdrawal_method and the fields its rail needs',
        ),
        accountId,
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    async (args) => {
      const created = await ctx
        .client(args.accountId)
        .beneficiaries.create(args.beneficiary as unknown as BeneficiaryInput);
      return result(redact, `Created beneficiary ${created.id}.`, { beneficiary: created });
    },
  );
  registerTool(
    ctx,
    'update_beneficiary',
    {
      title: 'Update a beneficiary',
      description:
        'Replaces a saved beneficiary: send the complete required set for its rail, not a partial patch.',
      inputSchema: {
        beneficiaryId: id('beneficiary'),
        beneficiary: body('The whole beneficiary'),
        accountId,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async (args) => {
      const updated = await ctx
        .client(args.accountId)
        .beneficiaries.update(args.beneficiaryId, args.beneficiary as unknown as BeneficiaryInput);
      return result(redact, `Updated beneficiary ${updated.id}.`, { beneficiary: updated });
    },
  );
  registerTool(
    ctx,
    'delete_beneficiary',
    {
      title: 'Delete a beneficiary',
      description: 'Deletes a saved beneficiary for good.',
      inputSchema: { beneficiaryId: id('beneficiary'), accountId },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async (args) => {
      await ctx.client(args.accountId).beneficiaries.delete(args.beneficiaryId);
      return result(redact, `Deleted beneficiary ${args.beneficiaryId}.`, { deleted: args.beneficiaryId });
    },
  );
}

export function registerPayerNameWrites(ctx: ToolContext): void {
  if (!ctx.config.payerNameWrites) return;
  const { redact } = ctx;
  registerTool(
    ctx,
    'create_payer_name',
    {
      title: 'Submit a payer name',
      description:
        'Submits a payer name for review (JSON fields only; documents go through the dashboard or the SDK). Not idempotent: a repeat gets 409 for the same display name.',
      inputSchema: {
        payerName: payerNameFields,
        accountId,
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    async (args) => {
      const created = await ctx.client(args.accountId).payerNames.create(args.payerName);
      return result(redact, `Submitted payer name ${created.name}: ${created.status}.`, {
        payerName: created,
      });
    },
  );
  registerTool(
    ctx,
    'set_default_payer_name',
    {
      title: 'Set the default payer name',
      description: 'Makes a payer name that cleared review the account default (isDefault false clears it).',
      inputSchema: {
        payerNameId: id('payer name'),
        isDefault: z.boolean().optional().describe('Default true.'),
        accountId,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async (args) => {
      const named = await ctx
        .client(args.accountId)
        .payerNames.setDefault(args.payerNameId, args.isDefault ?? true);
      return result(redact, `Payer name ${named.name}: isDefault ${named.isDefault}.`, { payerName: named });
    },
  );
  registerTool(
    ctx,
    'archive_payer_name',
    {
      title: 'Archive a payer name',
      description: 'Archives a payer name for good; withdrawals naming it are then refused.',
      inputSchema: { payerNameId: id('payer name'), accountId },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async (args) => {
      const archived = await ctx.client(args.accountId).payerNames.archive(args.payerNameId);
      return result(redact, `Archived payer name ${archived.name}.`, { payerName: archived });
    },
  );
}
