import {
  LookupParamsSchema,
  PAYER_NAME_REVIEW_STATUSES,
  PayerNameListParamsSchema,
  TRANSACTION_STATUSES,
  TransactionListParamsSchema,
} from 'payments-service-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { connect, envFor, type Session, useMockServer } from './helpers.js';

type JsonSchema = Record<string, unknown>;

const mock = useMockServer();
let session: Session;
let tools: Map<string, { properties: Record<string, JsonSchema>; required?: string[] }>;

beforeAll(async () => {
  session = await connect(envFor(mock.server()));
  const listed = await session.client.listTools();
  tools = new Map(
    listed.tools.map((t) => [
      t.name,
      {
        properties: t.inputSchema.properties as Record<string, JsonSchema>,
        ...(t.inputSchema.required ? { required: t.inputSchema.required } : {}),
      },
    ]),
  );
});
afterAll(() => session?.close());

/** The SDK schema as JSON Schema, on its input side; a `Date` branch comes out as `{}` (anything). */
function sdkJson(schema: z.core.$ZodType) {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-7' }) as {
    properties: Record<string, JsonSchema>;
    required?: string[];
  };
}

/** A listed property without the description the tool adds for the model. */
function bare(property: JsonSchema | undefined): JsonSchema {
  const { description: _, ...rest } = property ?? {};
  return rest;
}

/** What JSON can carry of an SDK property: a union with an unrepresentable (`{}`) branch loses that branch. */
function carriable(property: JsonSchema): JsonSchema {
  const branches = property.anyOf as JsonSchema[] | undefined;
  if (!branches) return property;
  const kept = branches.filter((b) => Object.keys(b).length > 0);
  return kept.length === 1 ? kept[0]! : { anyOf: kept };
}

describe("the read tools' input schemas, derived from the SDK's request schemas", () => {
  it('list_transactions takes the properties of TransactionListParamsSchema, each as the SDK states it', () => {
    const tool = tools.get('list_transactions')!;
    const sdk = sdkJson(TransactionListParamsSchema);
    expect(Object.keys(tool.properties).sort()).toEqual([...Object.keys(sdk.properties), 'accountId'].sort());
    for (const [name, property] of Object.entries(sdk.properties)) {
      expect(bare(tool.properties[name]), name).toEqual(carriable(property));
    }
    expect(tool.properties.status!.enum).toEqual([...TRANSACTION_STATUSES]);
    expect(tool.properties.pageSize).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(tool.properties.page).toMatchObject({ type: 'integer', minimum: 1 });
    // The SDK's date filters also take a Date; JSON carries only their string form.
    expect(sdk.properties.startDate!.anyOf).toEqual([{ type: 'string' }, {}]);
    expect(bare(tool.properties.startDate)).toEqual({ type: 'string' });
    expect(tool.required ?? []).toEqual([]);
  });

  it('lookup_account_name takes the properties of LookupParamsSchema, the same required', () => {
    const tool = tools.get('lookup_account_name')!;
    const sdk = sdkJson(LookupParamsSchema);
    expect(Object.keys(tool.properties).sort()).toEqual([...Object.keys(sdk.properties), 'accountId'].sort());
    for (const [name, property] of Object.entries(sdk.properties)) {
      expect(bare(tool.properties[name]), name).toEqual(property);
    }
    expect(tool.properties.currency).toMatchObject({ enum: ['NGN'] });
    expect(tool.required).toEqual(sdk.required);
    expect(tool.required).toEqual(['bankCode', 'accountNumber']);
  });

  it('list_payer_names takes the SDK filters less its pass-through query, with the tool cap on pageSize', () => {
    const tool = tools.get('list_payer_names')!;
    const { query: _, ...sdk } = sdkJson(PayerNameListParamsSchema).properties;
    expect(Object.keys(tool.properties).sort()).toEqual([...Object.keys(sdk), 'accountId'].sort());
    for (const name of ['page', 'archived', 'status']) {
      expect(bare(tool.properties[name]), name).toEqual(sdk[name]);
    }
    // The SDK keeps the review status open (the spec does not say its four are all); the model is told them.
    for (const status of PAYER_NAME_REVIEW_STATUSES) {
      expect(tool.properties.status!.description).toContain(status);
    }
    expect(sdk.pageSize).toMatchObject({ type: 'integer', minimum: 1 });
    expect(bare(tool.properties.pageSize)).toEqual({ ...sdk.pageSize, maximum: 100 });
  });

  it('every read tool describes each of its inputs for the model', () => {
    for (const [name, tool] of tools) {
      for (const [key, property] of Object.entries(tool.properties)) {
        expect(property.description, `${name}.${key}`).toBeTruthy();
      }
    }
  });
});
