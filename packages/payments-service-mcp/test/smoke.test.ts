import { afterAll, beforeAll, expect, it } from 'vitest';
import { CANARY_KEY, connect, envFor, type Session, useMockServer } from './helpers.js';

const mock = useMockServer();
let session: Session;
beforeAll(async () => {
  session = await connect(envFor(mock.server()));
});
afterAll(() => session?.close());

it('smoke', async () => {
  const tools = await session.client.listTools();
  console.log(JSON.stringify(tools.tools.map((t) => [t.name, t.annotations])));
  const r = await session.call('list_banks');
  console.log(JSON.stringify(r).slice(0, 300), session.stderr().replaceAll(CANARY_KEY, 'X'));
  expect(r.isError).toBeFalsy();
});
