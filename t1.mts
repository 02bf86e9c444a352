import { Tokenizer, TokenParser } from "@streamparser/json";
function run(text: string) {
  const t = new Tokenizer();
  const tp = new TokenParser({ paths: ["$.categories.*", "$.products.*"], keepStack: false });
  let depth = 0; let last = -1;
  t.onToken = (tok: any) => { last = tok.offset; if (depth === 1 && tok.token === 9 /*?*/) {} ; tp.write(tok); };
  tp.onValue = ({ value, key, stack }: any) => console.log("V", JSON.stringify(value), key, stack.length, stack.map((s: any) => s.key));
  t.onError = (e: any) => console.log("TERR", e.message, last);
  tp.onError = (e: any) => console.log("PERR", e.message);
  t.write(text); t.end();
}
run('{"categories":[{"a":1}],"products":[{"x":[1,2]},{"y":2}],"zz":5}');
run('{"products": [{"card_keys": ["SECRET-NO-DELIMITER" "x"]}]}');
run('{"products": [{"card_keys": ["SEC');
run('{"products": [1,]}');
run('{"products": [1]} x');
