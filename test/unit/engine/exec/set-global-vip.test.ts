// SET GLOBAL of the settings searchd changes only from a VIP connection (HandleSetGlobal): quarry has
// no VIP listener, so every client gets searchd's refusal. They were accepted and changed nothing.
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('set-global-vip');

const last = async (sql: string) => (await t.exec(sql)).at(-1);

it('refuses the VIP-only globals with searchd\'s messages; the session forms stay accepted', async () => {
  for (const n of ['wait_timeout', 'interactive_timeout', 'net_write_timeout', 'network_timeout', 'thread_stack', 'throttling_period', 'threads_ex', 'reset_network_timeout_on_packet']) {
    expect(await last(`SET GLOBAL ${n} = 10`)).toMatchObject({ kind: 'error', message: `Only VIP connections can change global ${n} value` });
  }
  expect(await last('SET GLOBAL read_timeout = 10')).toMatchObject({ kind: 'error', message: 'Only VIP connections can change global net_read_timeout value' });
  expect(await last('SET GLOBAL maintenance = 1')).toMatchObject({ kind: 'error', message: 'Only VIP connections can set maintenance mode' });
  expect(await last('SET wait_timeout = 10')).toMatchObject({ kind: 'ok' });
  expect(await last('SET SESSION net_write_timeout = 10')).toMatchObject({ kind: 'ok' });
  // the ones quarry applies or any connection may set are untouched
  expect(await last('SET GLOBAL query_log_min_msec = 5')).toMatchObject({ kind: 'ok' });
  expect(await last('SET GLOBAL auto_optimize = 1')).toMatchObject({ kind: 'ok' });
});
