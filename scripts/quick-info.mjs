#!/usr/bin/env node
/**
 * The notes of the spec reach a merchant's editor: packs the SDK (from the dist/ already built; `--build`
 * builds first), installs the tarball into a throwaway project, and asks the TypeScript language service for
 * the quick info (what an editor shows on hover) of a sample of response and params fields, from an ESM
 * module (`.d.ts`) and a CommonJS one (`.d.cts`). Each field passes when its documentation holds the note. And
 * the row of the transaction listing inside a `for await`, as a merchant hovers it: `tx.source_amount` must
 * show `number | undefined` and the spec's note, never `unknown`.
 *
 *   npm run build && node scripts/quick-info.mjs
 *
 * Ends with "quick-info: N passed, M failed".
 */
import './npm-env.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { packSdk } from './pack.mjs';
import { CI_ARGS, preparePinned } from './pins.mjs';

/** [type, field, text the documentation must hold] */
const SAMPLE = [
  ['Transaction', 'source_amount', 'minor units of `source_currency`'],
  ['Transaction', 'destination_amount', 'delivered to the destination'],
  ['Transaction', 'fee_amount', 'minor units'],
  ['Transaction', 'status', 'operations have already claimed'],
  ['Transaction', 'payment_rail', 'absence means the rail is unknown'],
  ['Transaction', 'uetr', 'omitted until the correspondent network assigns it'],
  ['Transaction', 'tracking_codes', '`IMAD` on corridors that produce one'],
  ['Transaction', 'external_reference', 'the service assigns'],
  ['LegacyTransaction', 'amount', 'Minor units'],
  ['Payout', 'amount', '`destination_amount + fee_amount`'],
  ['Payout', 'external_reference', 'the service assigns'],
  ['PayerName', 'decisionNote', 'set on `changes_requested` and `rejected`, cleared on an update'],
  ['PayerName', 'status', 'Only `active` is fully usable'],
  ['PayerName', 'metadata', 'omitted entirely when none is set'],
  ['PayerNameDocument', 'downloadUrl', 'valid 1 hour'],
  ['AccountLookup', 'accountNameVerified', 'Always true'],
  ['AccountLookup', 'bvn', 'Always an empty string'],
  ['AccountLookup', 'accountName', 'not one supplied by the caller'],
  ['Beneficiary', 'withdrawal_method', 'null when no rail was set'],
  ['Beneficiary', 'deprecation_warning', 'grace period'],
  ['IndividualKycLink', 'expiresAt', '72 hours after creation'],
  ['Currency', 'status', 'active currencies only'],
  ['Bank', 'bankCode', 'NIP institution code'],
  ['ReferralLink', 'inviteUrl', 'the business you refer'],
  ['PayoutCreateParams', 'amount', 'MAJOR units, as a decimal string'],
  ['PayoutCreateParams', 'amountMinor', 'MINOR units (kobo, cents), a whole number'],
  ['PayoutCreateParams', 'currency', '`USDC` and `USDT` (smallest unit not stated by the spec'],
  ['PayoutLimits', 'NGN', 'MAJOR units'],
  ['ClientOptions', 'payoutLimits', 'Compared exactly, as decimals'],
  ['PayoutCreateParams', 'externalReference', 'returns the original transaction'],
  ['PayoutCreateParams', 'extra', 'Body fields the spec does not name'],
  ['TransactionListParams', 'startDate', 'Inclusive'],
  ['TransactionListParams', 'status', '`failed` transactions are left out'],
  ['LookupParams', 'accountNumber', '10-digit NUBAN'],
  ['PayerNameCreateParams', 'display_name', '1 to 255 characters'],
  ['UsBankBeneficiaryInput', 'routing_number', '9-digit ABA number'],
];

/** Types whose every field (and every field of an object field) must carry a doc comment. */
const EVERY_FIELD = [
  'Transaction',
  'LegacyTransaction',
  'Payout',
  'Beneficiary',
  'PayerName',
  'PayerNameDocument',
  'AccountLookup',
  'IndividualKycLink',
  'Currency',
  'Bank',
  'ReferralLink',
  'PayoutCreateParams',
  'PayoutLimits',
  'TransactionListParams',
  'LookupParams',
  'PayerNameCreateParams',
  'PayerNameListParams',
  'BeneficiaryListParams',
  'AccountListParams',
  'WalletTransactionListParams',
  'NgnBankTransferInput',
  'UsBankBeneficiaryInput',
  'InternationalWireBeneficiaryInput',
  'LocalTransferBeneficiaryInput',
  'CryptoBeneficiaryInput',
  'PlatformTransferBeneficiaryInput',
  'MobileMoneyBeneficiaryInput',
];

const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'sdk-quick-info-'));
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
let passed = 0;
let failed = 0;

try {
  if (process.argv.includes('--build') || !existsSync(join(root, 'dist/index.d.ts')))
    run('npm', ['run', '-s', 'build'], root);
  // dist/ is built; the app is the SDK's pins (scripts/pins/sdk) with this tarball.
  const tarball = packSdk(work);
  const app = preparePinned('sdk', join(work, 'app'), { 'payments-service-sdk': tarball });
  run('npm', [...CI_ARGS, '--ignore-scripts'], app);

  const types = [...new Set([...SAMPLE.map(([type]) => type), ...EVERY_FIELD])];
  const body = SAMPLE.map(([type, field], i) => `declare const v${i}: ${type};\nv${i}.${field};\n`).join('');
  // The loop a merchant writes; an async function, so the CommonJS module may hold it too.
  const loop = `declare const client: PaymentsClient;
export async function received(): Promise<number> {
  let total = 0;
  for await (const tx of client.transactions.list()) {
    total += tx.source_amount ?? 0;
  }
  return total;
}
`;
  const header = `import type { ${types.join(', ')}, PaymentsClient } from 'payments-service-sdk';\n`;
  const files = {
    [join(app, 'esm.mts')]: `${header}${body}${loop}`,
    [join(app, 'cjs.cts')]: `${header}${body}${loop}`,
  };
  for (const [file, text] of Object.entries(files)) writeFileSync(file, text);

  const options = {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: false,
    noEmit: true,
  };
  const service = ts.createLanguageService({
    getScriptFileNames: () => Object.keys(files),
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) =>
      existsSync(f) ? ts.ScriptSnapshot.fromString(readFileSync(f, 'utf8')) : undefined,
    getCurrentDirectory: () => app,
    getCompilationSettings: () => options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });

  // Every field of EVERY_FIELD (one level into object fields; free-form maps excepted) has documentation.
  const esm = Object.keys(files)[0];
  const program = service.getProgram();
  const checker = program.getTypeChecker();
  const imported = program.getSourceFile(esm).statements[0].importClause.namedBindings.elements;
  const undocumented = [];
  for (const spec of imported) {
    if (!EVERY_FIELD.includes(spec.name.text)) continue;
    const walk = (type, prefix, depth) => {
      for (const p of checker.getPropertiesOfType(checker.getNonNullableType(type))) {
        if (!ts.displayPartsToString(p.getDocumentationComment(checker)))
          undocumented.push(`${prefix}${p.name}`);
        const inner = checker.getNonNullableType(checker.getTypeOfSymbol(p));
        const free = ['extra', 'metadata', 'query', 'deprecation_warning'].includes(p.name);
        if (depth === 0 && !free && inner.flags & ts.TypeFlags.Object && !checker.isArrayType(inner)) {
          walk(inner, `${prefix}${p.name}.`, 1);
        }
      }
    };
    walk(checker.getTypeAtLocation(spec.name), `${spec.name.text}.`, 0);
  }
  if (undocumented.length === 0) {
    passed++;
    console.log(`ok   every field of ${EVERY_FIELD.length} response and params types carries a doc comment`);
  } else {
    failed++;
    console.log(`FAIL fields without a doc comment: ${undocumented.join(', ')}`);
  }

  for (const [file, text] of Object.entries(files)) {
    const errors = service.getSemanticDiagnostics(file).concat(service.getSyntacticDiagnostics(file));
    for (const d of errors) {
      failed++;
      console.log(
        `FAIL ${file.endsWith('.cts') ? 'cjs' : 'esm'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    }
    const kind = file.endsWith('.cts') ? 'cjs' : 'esm';
    // The loop: what the editor shows on `tx.source_amount`, its type and its note.
    const at = text.indexOf('tx.source_amount ??') + 'tx.'.length;
    const hover = service.getQuickInfoAtPosition(file, at);
    const shown = ts.displayPartsToString(hover?.displayParts ?? []);
    const note = ts.displayPartsToString(hover?.documentation ?? []).replace(/\s+/g, ' ');
    if (
      shown.endsWith('source_amount?: number | undefined') &&
      note.includes('minor units of `source_currency`')
    ) {
      passed++;
      console.log(
        `ok   ${kind} for await over transactions.list(): tx.source_amount shows "${shown}", ${note}`,
      );
    } else {
      failed++;
      console.log(
        `FAIL ${kind} for await over transactions.list(): tx.source_amount shows "${shown}" with "${note}"`,
      );
    }
    SAMPLE.forEach(([type, field, note], i) => {
      const position = text.indexOf(`v${i}.${field};`) + `v${i}.`.length;
      const info = service.getQuickInfoAtPosition(file, position);
      const doc = ts.displayPartsToString(info?.documentation ?? []).replace(/\s+/g, ' ');
      if (doc.includes(note)) {
        passed++;
        console.log(`ok   ${kind} ${type}.${field}: ${doc.length > 90 ? `${doc.slice(0, 87)}...` : doc}`);
      } else {
        failed++;
        console.log(`FAIL ${kind} ${type}.${field}: expected "${note}", the editor shows "${doc}"`);
      }
    });
  }
} catch (error) {
  failed++;
  console.error(`quick-info: ${error.message}${error.stderr ? `\n${error.stderr}` : ''}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`quick-info: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
