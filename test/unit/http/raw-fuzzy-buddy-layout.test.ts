// A SELECT with OPTION fuzzy is answered by Buddy in Manticore, so /sql?mode=raw and /cli_json give Buddy's
// one-line layout with `total` first (CLT buddy-plugins/test-fuzzy-trailing-semicolon.rec,
// http-interface/cli-json-endpoint.rec); every other result set keeps searchd's row-buffer layout.
import { expect, it } from 'vitest';
import { renderRawReply } from '../../../src/http/render-raw.js';
import type { JsonOut } from '../../../src/engine/values/cell-format.js';
import { toJsonText } from '../../../src/http/json-text.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const t = useTempEngine('raw-fuzzy-layout', async (t) => {
  await t.exec("CREATE TABLE t (f TEXT, n INT) min_infix_len='2'");
  await t.exec("INSERT INTO t (id, f, n) VALUES (1, 'ящик', 7), (2, 'ящики', 8)");
});

const rawText = async (sql: string): Promise<string> => toJsonText(renderRawReply(await t.exec(sql)).body as JsonOut);

it('a fuzzy SELECT is one line, total first', async () => {
  expect(await rawText("select id, f from t where match('ящик') option fuzzy=1;")).toBe(
    '[{"total":2,"error":"","warning":"","columns":[{"id":{"type":"long long"}},{"f":{"type":"string"}}],' +
      '"data":[{"id":1,"f":"ящик"},{"id":2,"f":"ящики"}]}]',
  );
  expect(await rawText("select n from t where match('nothing') option fuzzy=1")).toBe(
    '[{"total":0,"error":"","warning":"","columns":[{"n":{"type":"long"}}],"data":[]}]',
  );
});

it('the same SELECT without fuzzy keeps searchd\'s layout', async () => {
  expect(await rawText("select id from t where match('ящик') order by id asc")).toBe(
    '[{\n"columns":[{"id":{"type":"long long"}}],\n"data":[\n{"id":1}\n],\n"total":1,\n"error":"",\n"warning":""\n}]',
  );
});
