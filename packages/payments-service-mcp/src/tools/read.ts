import { currencyDigits, type Page, type PayerName } from 'payments-service-sdk';
import * as z from 'zod';
import { accountId, READ_ONLY, registerTool, type ToolContext } from '../context.js';
import { result, transactionOut } from '../format.js';
import {
  beneficiariesInput,
  lookupInput,
  MAX_PAGE_SIZE,
  payerNamesInput,
  transactionsInput,
} from './read-inputs.js';

/** Pages `get_payer_name` reads at most while looking for an id (the spec shows no GET by id). */
const PAYER_NAME_SCAN_PAGES = 10;

/** The currencies whose smallest unit the spec itself states (NGN kobo, USD cents). */
const SPEC_STATES_DIGITS = new Set(['NGN', 'USD']);

/**
 * A currency's minor-unit digits as the SDK converts its amounts (`currencyDigits`), and their source: the spec
 * states NGN's and USD's only; for other ISO codes the SDK takes ISO 4217's published figure (XAF has no minor
 * unit: 0), which the spec does not contradict; USDC and USDT are in neither, so null. Saying the source keeps
 * "null where nothing states them" true without giving an agent digits that disagree with the amounts' `major`.
 */
function minorUnits(code: string) {
  const digits = currencyDigits(code);
  const source = SPEC_STATES_DIGITS.has(code.toUpperCase())
    ? 'spec'
    : digits === undefined
      ? null
      : 'ISO 4217';
  return { minorUnitDigits: digits ?? null, minorUnitSource: source };
}

const uuid = (what: string) => z.string().describe(`The ${what}'s id (a uuid).`);

/** One page and where the next one is: the agent sees the cap and asks for more itself. */
function pageOut<T>(current: Page<T>) {
  const hasMore = !current.isLastPage && current.data.length > 0;
  return {
    page: current.page,
    pageSize: current.pageSize,
    totalPages: current.totalPages,
    ...(current.totalCount !== undefined ? { totalCount: current.totalCount } : {}),
    hasMore,
    nextPage: hasMore ? current.page + 1 : null,
    maxPageSize: MAX_PAGE_SIZE,
  };
}

export function registerReadTools(ctx: ToolContext): void {
  const { redact } = ctx;

  registerTool(
    ctx,
    'list_banks',
    {
      title: 'List Nigerian banks',
      description:
        'Every supported Nigerian bank with its bankCode (NIP institution code), for name enquiry and NGN payouts.',
      inputSchema: { accountId },
      annotations: READ_ONLY,
    },
    async (args) => {
      const banks = await ctx.client(args.accountId).banks.list();
      return result(redact, `${banks.length} banks.`, { banks });
    },
  );

  registerTool(
    ctx,
    'lookup_account_name',
    {
      title: 'Name enquiry',
      description:
        'Confirms the holder name of a Nigerian bank account (name enquiry). Pass its result as nameEnquiry to send_payout for NGN payouts.',
      inputSchema: { ...lookupInput, accountId },
      annotations: READ_ONLY,
    },
    async ({ accountId: id, ...params }) => {
      const found = await ctx.client(id).banks.lookup(params);
      return result(redact, `${found.accountNumber} at ${found.bankName}: ${found.accountName}.`, {
        nameEnquiry: {
          accountNumber: found.accountNumber,
          bankCode: found.bankCode,
          accountName: found.accountName,
        },
        account: found,
      });
    },
  );

  registerTool(
    ctx,
    'list_supported_currencies',
    {
      title: 'Supported currencies',
      description:
        'Active currencies of the wallet, with minorUnitDigits and where that figure comes from (minorUnitSource): ' +
        '"spec" for NGN and USD, "ISO 4217" for other ISO codes (XAF 0), null for USDC and USDT, whose smallest unit ' +
        'neither states (give their amounts in major units).',
      inputSchema: { accountId },
      annotations: READ_ONLY,
    },
    async (args) => {
      const currencies = await ctx.client(args.accountId).wallet.supportedCurrencies();
      const out = currencies.map((c) => ({ ...c, ...minorUnits(c.code) }));
      return result(redact, `${out.length} currencies: ${out.map((c) => c.code).join(', ')}.`, {
        currencies: out,
      });
    },
  );

  registerTool(
    ctx,
    'list_transactions',
    {
      title: 'List transactions',
      description:
        `One page of transactions, newest first, filtered by status and an inclusive date range. At most ${MAX_PAGE_SIZE} rows a call: ` +
        'when hasMore is true, call again with page = nextPage. Amounts are given as { minor, major, currency }.',
      inputSchema: { ...transactionsInput, accountId },
      annotations: READ_ONLY,
    },
    async ({ accountId: id, ...params }) => {
      const current = await ctx.client(id).transactions.list(params);
      const paging = pageOut(current);
      const summary = `Page ${paging.page} of ${paging.totalPages}: ${current.data.length} transactions${paging.hasMore ? `; more on page ${paging.nextPage}` : ''}.`;
      return result(redact, summary, { transactions: current.data.map(transactionOut), ...paging });
    },
  );

  registerTool(
    ctx,
    'list_payer_names',
    {
      title: 'List payer names',
      description: 'One page of payer names (the names payout recipients see), with their review status.',
      inputSchema: { ...payerNamesInput, accountId },
      annotations: READ_ONLY,
    },
    async ({ accountId: id, ...params }) => {
      const current = await ctx.client(id).payerNames.list(params);
      const paging = pageOut(current);
      return result(
        redact,
        `Page ${paging.page} of ${paging.totalPages}: ${current.data.length} payer names.`,
        {
          payerNames: current.data,
          ...paging,
        },
      );
    },
  );

  registerTool(
    ctx,
    'get_payer_name',
    {
      title: 'Get a payer name',
      description: `One payer name by id. The API shows no read by id, so the listing is searched (at most ${PAYER_NAME_SCAN_PAGES} pages of ${MAX_PAGE_SIZE}, archived included).`,
      inputSchema: { payerNameId: uuid('payer name'), accountId },
      annotations: READ_ONLY,
    },
    async ({ payerNameId, accountId: id }) => {
      const client = ctx.client(id);
      for (const archived of [false, true]) {
        let current: Page<PayerName> | undefined = await client.payerNames.list({
          archived,
          pageSize: MAX_PAGE_SIZE,
        });
        for (let read = 1; current; read++) {
          const hit = current.data.find((p) => p.id === payerNameId);
          if (hit) return result(redact, `Payer name ${hit.name}: ${hit.status}.`, { payerName: hit });
          if (!current.hasNextPage()) break;
          if (read >= PAYER_NAME_SCAN_PAGES) {
            return result(
              redact,
              `Payer name ${payerNameId} is not in the first ${PAYER_NAME_SCAN_PAGES} pages; use list_payer_names to page on.`,
              { found: false, complete: false },
              true,
            );
          }
          current = await current.getNextPage();
        }
      }
      return result(
        redact,
        `No payer name ${payerNameId} on this account.`,
        { found: false, complete: true },
        true,
      );
    },
  );

  registerTool(
    ctx,
    'list_beneficiaries',
    {
      title: 'List beneficiaries',
      description: 'One page of saved beneficiaries.',
      inputSchema: { ...beneficiariesInput, accountId },
      annotations: READ_ONLY,
    },
    async ({ accountId: id, ...params }) => {
      const current = await ctx.client(id).beneficiaries.list(params);
      const paging = pageOut(current);
      return result(
        redact,
        `Page ${paging.page} of ${paging.totalPages}: ${current.data.length} beneficiaries.`,
        {
          beneficiaries: current.data,
          ...paging,
        },
      );
    },
  );

  registerTool(
    ctx,
    'get_beneficiary',
    {
      title: 'Get a beneficiary',
      description: 'One saved beneficiary by id.',
      inputSchema: { beneficiaryId: uuid('beneficiary'), accountId },
      annotations: READ_ONLY,
    },
    async ({ beneficiaryId, accountId: id }) => {
      const beneficiary = await ctx.client(id).beneficiaries.retrieve(beneficiaryId);
      return result(redact, `Beneficiary ${beneficiary.account_name ?? beneficiary.id}.`, { beneficiary });
    },
  );
}
