import { RawJsonAnswers } from '../../src/graphql/raw-json-answers';

/** JSON text written by PostgreSQL goes into an answer of /graphql as it is (compiled reads). */
test('placeholders become their texts, exactly as written, wherever JSON.stringify puts them', () => {
  const answers = new RawJsonAnswers();
  const texts = ['{"a":[1,2],"b":"$& $1 $$"}', '[]', 'null'];
  const data = {
    x: answers.placeholder(texts[0]!),
    y: [answers.placeholder(texts[1]!)],
    z: answers.placeholder(texts[2]!),
  };
  expect(answers.fill(JSON.stringify({ data }))).toBe(
    `{"data":{"x":${texts[0]},"y":[${texts[1]}],"z":${texts[2]}}}`,
  );
});

test('a string that looks like a marker is not one: no nonce of this answer, or not a whole string', () => {
  const answers = new RawJsonAnswers();
  const real = answers.placeholder('1');
  const forged = JSON.stringify(JSON.stringify(real).slice(1, -1).replace(/:0$/, ':1'));
  const embedded = JSON.stringify(`x${JSON.stringify(real).slice(1, -1)}`);
  const other = new RawJsonAnswers().placeholder('2');
  const body = `[${JSON.stringify(real)},${forged},${embedded},${JSON.stringify(other)}]`;
  const filled = JSON.parse(answers.fill(body)) as unknown[];
  expect(filled[0]).toBe(1);
  expect(filled.slice(1).every((v) => typeof v === 'string')).toBe(true);
});

test('an answer without placeholders is returned as it is', () => {
  const body = '{"data":{"viewer":null}}';
  expect(new RawJsonAnswers().fill(body)).toBe(body);
});
