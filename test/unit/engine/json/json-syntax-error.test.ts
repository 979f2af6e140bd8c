// searchd's JSON attribute grammar (src/sphinxjson.l / sphinxjson.y, bison %error-verbose): the P10 messages
// its LR automaton gives. Errors arise only in states without a default reduction; their shifted tokens
// are listed when there are at most four; `near` is the input from the last string or identifier read.
import { describe, expect, it } from 'vitest';
import { jsonSyntaxError } from '../../../../src/engine/json/json-syntax-error.js';

describe('jsonSyntaxError', () => {
  it('takes what searchd takes: strict JSON, its lenient forms, the empty document', () => {
    for (const ok of ['{}', '[]', '{"a":1}', "{'a':'b'}", '{a:1, b:[1,2.5,{}]}', '[1,+2,.5,5.,1e5,TRUE,Null]', '', '  ', '# c\n{}', '{"a":"\\"q"} // x', '[[[]]]']) {
      expect(jsonSyntaxError(ok), ok).toBeUndefined();
    }
  });

  it('gives the message of the state the error is found in', () => {
    expect(jsonSyntaxError('{bad')).toBe("P10: syntax error, unexpected $end, expecting ':' near 'bad'");
    expect(jsonSyntaxError('{"a":1,}')).toBe(`P10: syntax error, unexpected '}', expecting TOK_IDENT or TOK_STRING near '"a":1,}'`);
    expect(jsonSyntaxError('{"a":1 "b":2}')).toBe(`P10: syntax error, unexpected TOK_STRING, expecting '}' or ',' near '"b":2}'`);
    expect(jsonSyntaxError('[1,2')).toBe("P10: syntax error, unexpected $end, expecting ']' or ',' near '(null)'");
    // a value position shifts eight tokens: none listed
    expect(jsonSyntaxError('{"a": b}')).toBe("P10: syntax error, unexpected TOK_IDENT near 'b}'");
    expect(jsonSyntaxError('[1,]')).toBe("P10: syntax error, unexpected ']' near '(null)'");
    // the root's empty alternative is reduced first: what follows must be the end
    expect(jsonSyntaxError('5')).toBe("P10: syntax error, unexpected TOK_INT, expecting $end near '(null)'");
    expect(jsonSyntaxError('{} x')).toBe("P10: syntax error, unexpected TOK_IDENT, expecting $end near 'x'");
    // a character the grammar does not name, an unterminated string
    expect(jsonSyntaxError('{"a":@}')).toBe(`P10: syntax error, unexpected $undefined near '"a":@}'`);
    expect(jsonSyntaxError('{"a')).toBe("P10: syntax error, unexpected $undefined, expecting '}' or ',' near '(null)'");
  });

  it("reports a list that begins with ',' from the grammar's own action, once its item is read", () => {
    expect(jsonSyntaxError('{,"a":1}')).toBe(`P10: unexpected ',' near '"a":1}'`);
    expect(jsonSyntaxError('[,1]')).toBe("P10: unexpected ',' near '(null)'");
  });
});
