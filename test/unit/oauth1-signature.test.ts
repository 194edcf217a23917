import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import OAuth from 'oauth-1.0a';
import {
  OAuthSyntaxError,
  SIGNATURE_METHODS,
  baseStringUri,
  parseFormEncoded,
  parseOAuthAuthorizationHeader,
  percentDecode,
  percentEncode,
  sign,
  signatureBaseString,
  signaturesMatch,
  type OAuthParam,
  type SignatureMethod,
} from '../../src/auth/oauth1-signature';

describe('percentEncode / percentDecode (RFC 5849 §3.6)', () => {
  test.each([
    ['Ladies + Gentlemen', 'Ladies%20%2B%20Gentlemen'],
    ['An encoded string!', 'An%20encoded%20string%21'],
    ['Dogs, Cats & Mice', 'Dogs%2C%20Cats%20%26%20Mice'],
    ["!*'()", '%21%2A%27%28%29'],
    ['AZaz09-._~', 'AZaz09-._~'],
    ['%3D', '%253D'],
    ['☃', '%E2%98%83'],
    ['😀', '%F0%9F%98%80'],
    ['', ''],
  ])('percentEncode(%j) is %j', (raw, encoded) => {
    expect(percentEncode(raw)).toBe(encoded);
  });

  test('any string round-trips; the output is unreserved characters and uppercase %XX only', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const encoded = percentEncode(text);
        expect(encoded).toMatch(/^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})*$/);
        expect(percentDecode(encoded)).toBe(text);
      }),
    );
  });

  test('percentDecode reads UTF-8 escapes in either case, keeps "+" and a leading BOM', () => {
    expect(percentDecode('%e2%98%83 %E2%98%83')).toBe('☃ ☃');
    expect(percentDecode('a+b%2B')).toBe('a+b+');
    expect(percentDecode('%EF%BB%BFx')).toBe('\uFEFFx');
  });

  test.each(['%', '%4', '%zz', 'a%2', '%FF', '%C0%AF', '%ED%A0%80', '%E2%98'])(
    'percentDecode(%j) throws OAuthSyntaxError',
    (text) => {
      expect(() => percentDecode(text)).toThrow(OAuthSyntaxError);
    },
  );
});

describe('parseFormEncoded', () => {
  test('splits pairs on the first "=", decodes "+" as a space and %XX as UTF-8', () => {
    expect(parseFormEncoded('where=active="true"&q=a+b%2Bc&c%40=&c2&snow=%E2%98%83')).toEqual([
      ['where', 'active="true"'],
      ['q', 'a b+c'],
      ['c@', ''],
      ['c2', ''],
      ['snow', '☃'],
    ]);
  });

  test('skips empty pieces but keeps repeated names and empty names', () => {
    expect(parseFormEncoded('')).toEqual([]);
    expect(parseFormEncoded('&a=1&&a=2&=x&')).toEqual([
      ['a', '1'],
      ['a', '2'],
      ['', 'x'],
    ]);
  });

  test.each(['a=%zz', '%zz=1', 'a=100%', 'a=%FF'])('%j throws OAuthSyntaxError', (text) => {
    expect(() => parseFormEncoded(text)).toThrow(OAuthSyntaxError);
  });
});

describe('parseOAuthAuthorizationHeader (RFC 5849 §3.5.1)', () => {
  test('reads the RFC example: realm excluded, values decoded, line breaks allowed', () => {
    const header = `OAuth realm="Example",
        oauth_consumer_key="0685bd9184jfhq22",
        oauth_token="ad180jjd733klru7",
        oauth_signature_method="HMAC-SHA1",
        oauth_signature="wOJIO9A2W5mFwDgiDvZbTSMK%2FPY%3D",
        oauth_timestamp="137131200",
        oauth_nonce="4572616e48616d6d65724c61686176",
        oauth_version="1.0"`;
    expect(parseOAuthAuthorizationHeader(header)).toEqual([
      ['oauth_consumer_key', '0685bd9184jfhq22'],
      ['oauth_token', 'ad180jjd733klru7'],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_signature', 'wOJIO9A2W5mFwDgiDvZbTSMK/PY='],
      ['oauth_timestamp', '137131200'],
      ['oauth_nonce', '4572616e48616d6d65724c61686176'],
      ['oauth_version', '1.0'],
    ]);
  });

  test('the scheme is case-insensitive; empty values and a bare scheme are allowed', () => {
    expect(parseOAuthAuthorizationHeader('oauth oauth_token="",x="a%20b"')).toEqual([
      ['oauth_token', ''],
      ['x', 'a b'],
    ]);
    expect(parseOAuthAuthorizationHeader('OAUTH   Realm="r" ,  a="1"')).toEqual([['a', '1']]);
    expect(parseOAuthAuthorizationHeader('OAuth')).toEqual([]);
  });

  test.each(['Basic dXNlcjpwYXNz', 'Bearer abc.def', 'OAuth2 a="1"', 'OAuthx', ''])(
    '%j is not the OAuth scheme',
    (header) => {
      expect(parseOAuthAuthorizationHeader(header)).toBeUndefined();
    },
  );

  test.each([
    'OAuth oauth_token=abc',
    'OAuth oauth_token="abc',
    'OAuth oauth_token="%zz"',
    'OAuth a="1" b="2"',
    'OAuth a="1",',
    'OAuth a="1",,b="2"',
    'OAuth ="1"',
    'OAuth a="x"y"',
  ])('%j throws OAuthSyntaxError', (header) => {
    expect(() => parseOAuthAuthorizationHeader(header)).toThrow(OAuthSyntaxError);
  });
});

describe('baseStringUri (RFC 5849 §3.4.1.2)', () => {
  test.each([
    // The RFC's two examples.
    ['http', 'EXAMPLE.COM:80', '/r%20v/X', 'http://example.com/r%20v/X'],
    ['https', 'www.example.net:8080', '/', 'https://www.example.net:8080/'],
    ['http', 'EXAMPLE.com:80', '/r%20v/X?id=123#frag', 'http://example.com/r%20v/X'],
    ['https', 'Example.com:443', '', 'https://example.com/'],
    ['https', 'example.com:80', '/a', 'https://example.com:80/a'],
    ['http', 'example.com:443', '/a', 'http://example.com:443/a'],
    ['http', 'example.com:8080', '/A/b', 'http://example.com:8080/A/b'],
    ['http', '[::1]:8080', '/x', 'http://[::1]:8080/x'],
    ['http', '[::1]', '/x', 'http://[::1]/x'],
  ] as const)('%s %s %s → %s', (protocol, host, path, expected) => {
    expect(baseStringUri(protocol, host, path)).toBe(expected);
  });
});

describe('signatureBaseString (RFC 5849 §3.4.1)', () => {
  test('reproduces the RFC §3.4.1.1 example from the raw query, header and form body', () => {
    const header = `OAuth realm="Example",
                    oauth_consumer_key="9djdj82h48djs9d2",
                    oauth_token="kkk9d7dh3k39sjv7",
                    oauth_signature_method="HMAC-SHA1",
                    oauth_timestamp="137131201",
                    oauth_nonce="7d8f3e4a",
                    oauth_signature="bYT5CMsGcbgUdFHObYMEfcx6bsw%3D"`;
    const params = [
      ...parseFormEncoded('b5=%3D%253D&a3=a&c%40=&a2=r%20b'),
      ...parseOAuthAuthorizationHeader(header)!,
      ...parseFormEncoded('c2&a3=2+q'),
    ];
    // The fully decoded table of §3.4.1.3.1 (plus oauth_signature, which the base string drops).
    expect(params).toEqual([
      ['b5', '=%3D'],
      ['a3', 'a'],
      ['c@', ''],
      ['a2', 'r b'],
      ['oauth_consumer_key', '9djdj82h48djs9d2'],
      ['oauth_token', 'kkk9d7dh3k39sjv7'],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_timestamp', '137131201'],
      ['oauth_nonce', '7d8f3e4a'],
      ['oauth_signature', 'bYT5CMsGcbgUdFHObYMEfcx6bsw='],
      ['c2', ''],
      ['a3', '2 q'],
    ]);
    // Sorting is on the *encoded* names: "c%40" precedes "c2", though "c2" < "c@" decoded.
    expect(
      signatureBaseString('POST', baseStringUri('http', 'example.com', '/request'), params),
    ).toBe(
      // Copied from the RFC, which wraps it for display only.
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q' +
        '%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_' +
        'key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_m' +
        'ethod%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk' +
        '9d7dh3k39sjv7',
    );
    // §3.1 says this request was signed with client secret "j49sk3j29djd" and token secret
    // "dh893hdasih9", but HMAC-SHA1 of the base string above with that key is
    // "r6/TJjbCOr97/+UU0NsvSne7s5g=", not the printed "bYT5CMsGcbgUdFHObYMEfcx6bsw=", so that
    // signature is not asserted; the §1.2 examples below do reproduce.
  });

  test('the method is uppercased, encoded if custom; no parameters leave an empty part', () => {
    expect(signatureBaseString('get', 'http://a.example/', [])).toBe(
      'GET&http%3A%2F%2Fa.example%2F&',
    );
    expect(signatureBaseString('Foo!', 'http://a.example/', [['x', 'y']])).toBe(
      'FOO%21&http%3A%2F%2Fa.example%2F&x%3Dy',
    );
  });

  test('repeated names sort by encoded value, oauth_signature is excluded wherever it is', () => {
    const params: OAuthParam[] = [
      ['z', 'b'],
      ['oauth_signature', 'x'],
      ['z', 'B'],
      ['z', '~'],
      ['z', ' '],
    ];
    expect(decodeURIComponent(signatureBaseString('GET', 'http://a/', params).split('&')[2]!)).toBe(
      'z=%20&z=B&z=b&z=~',
    );
  });
});

/** Verifies a request the way a server would, from its raw parts. */
function verify(request: {
  method: string;
  protocol: 'http' | 'https';
  host: string;
  path: string;
  query: string;
  authorization: string;
  consumerSecret: string;
  tokenSecret: string;
}) {
  const header = parseOAuthAuthorizationHeader(request.authorization)!;
  const params = [...parseFormEncoded(request.query), ...header];
  const base = signatureBaseString(
    request.method,
    baseStringUri(request.protocol, request.host, request.path),
    params,
  );
  const computed = sign('HMAC-SHA1', base, request.consumerSecret, request.tokenSecret);
  const given = header.find(([name]) => name === 'oauth_signature')![1];
  return { base, computed, matches: signaturesMatch(computed, given) };
}

describe('sign (RFC 5849 §3.4.2)', () => {
  // The three signed requests of the RFC 5849 §1.2 walkthrough; the first two go over HTTPS.
  test.each([
    {
      method: 'POST',
      protocol: 'https' as const,
      path: '/initiate',
      query: '',
      authorization: `OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03",
        oauth_signature_method="HMAC-SHA1", oauth_timestamp="137131200", oauth_nonce="wIjqoS",
        oauth_callback="http%3A%2F%2Fprinter.example.com%2Fready",
        oauth_signature="74KNZJeDHnMBp0EMJ9ZHt%2FXKycU%3D"`,
      tokenSecret: '',
      signature: '74KNZJeDHnMBp0EMJ9ZHt/XKycU=',
    },
    {
      method: 'POST',
      protocol: 'https' as const,
      path: '/token',
      query: '',
      authorization: `OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03",
        oauth_token="hh5s93j4hdidpola", oauth_signature_method="HMAC-SHA1",
        oauth_timestamp="137131201", oauth_nonce="walatlh", oauth_verifier="hfdp7dh39dks9884",
        oauth_signature="gKgrFCywp7rO0OXSjdot%2FIHF7IU%3D"`,
      tokenSecret: 'hdhd0244k9j7ao03',
      signature: 'gKgrFCywp7rO0OXSjdot/IHF7IU=',
    },
    {
      method: 'GET',
      protocol: 'http' as const,
      path: '/photos',
      query: 'file=vacation.jpg&size=original',
      authorization: `OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03",
        oauth_token="nnch734d00sl2jdk", oauth_signature_method="HMAC-SHA1",
        oauth_timestamp="137131202", oauth_nonce="chapoH",
        oauth_signature="MdpQcU8iPSUjWoN%2FUDMsK2sui9I%3D"`,
      tokenSecret: 'pfkkdhi9sl3r4s00',
      signature: 'MdpQcU8iPSUjWoN/UDMsK2sui9I=',
    },
  ])('RFC §1.2: $method $path signs to $signature', ({ signature, ...request }) => {
    const result = verify({
      ...request,
      host: 'photos.example.net',
      consumerSecret: 'kd94hf93k423kf44',
    });
    expect(result.computed).toBe(signature);
    expect(result.matches).toBe(true);
  });

  test('OAuth Core 1.0 Appendix A.5 (the community spec RFC 5849 derives from)', () => {
    const result = verify({
      method: 'GET',
      protocol: 'http',
      host: 'photos.example.net',
      path: '/photos',
      query: 'file=vacation.jpg&size=original',
      authorization: `OAuth realm="http://photos.example.net/",
        oauth_consumer_key="dpf43f3p2l4k3l03",
        oauth_token="nnch734d00sl2jdk", oauth_signature_method="HMAC-SHA1",
        oauth_signature="tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D", oauth_timestamp="1191242096",
        oauth_nonce="kllo9940pd9333jh", oauth_version="1.0"`,
      consumerSecret: 'kd94hf93k423kf44',
      tokenSecret: 'pfkkdhi9sl3r4s00',
    });
    expect(result.base).toBe(
      'GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg' +
        '%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh' +
        '%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096' +
        '%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal',
    );
    expect(result.computed).toBe('tR3+Ty81lMeYAr/Fid0kMTYa/WM=');
    expect(result.matches).toBe(true);
  });

  test('the secrets are encoded before being joined, and the methods differ', () => {
    expect(sign('HMAC-SHA1', 'base', 'a&b', '')).not.toBe(sign('HMAC-SHA1', 'base', 'a', 'b'));
    expect(sign('HMAC-SHA1', 'base', 'a&b', '')).toBe(
      createHmac('sha1', 'a%26b&').update('base').digest('base64'),
    );
    expect(sign('HMAC-SHA1', 'base', 'c', 't')).toHaveLength(28);
    expect(sign('HMAC-SHA256', 'base', 'c', 't')).toHaveLength(44);
  });
});

describe('signaturesMatch', () => {
  const sha1 = 'tR3+Ty81lMeYAr/Fid0kMTYa/WM=';
  const sha256 = sign('HMAC-SHA256', 'base', 'c', 't');

  test('accepts exactly the same signature', () => {
    expect(signaturesMatch(sha1, sha1)).toBe(true);
    expect(signaturesMatch(sha256, sha256)).toBe(true);
  });

  test.each([
    ['a different signature', 'MdpQcU8iPSUjWoN/UDMsK2sui9I='],
    ['a different length', sign('HMAC-SHA256', 'base', 'c', 't')],
    ['the empty string', ''],
    ['garbage', '!!! not base64 !!!'],
    ['trailing junk Buffer would skip', `${sha1}!!`],
    ['unused trailing bits set', 'tR3+Ty81lMeYAr/Fid0kMTYa/WN='],
    ['missing padding', 'tR3+Ty81lMeYAr/Fid0kMTYa/WM'],
    ['base64url', 'tR3-Ty81lMeYAr_Fid0kMTYa_WM='],
  ])('rejects %s', (_, given) => {
    expect(signaturesMatch(sha1, given)).toBe(false);
  });
});

describe('cross-check against the oauth-1.0a npm library', () => {
  const PROTOCOL_PARAMS = [
    'oauth_consumer_key',
    'oauth_nonce',
    'oauth_signature_method',
    'oauth_timestamp',
    'oauth_token',
    'oauth_version',
    'oauth_signature',
  ] as const;

  /** Signs with oauth-1.0a, returning its protocol parameters and the base string it hashed. */
  function librarySign(
    signatureMethod: SignatureMethod,
    request: OAuth.RequestOptions,
    consumer: OAuth.Consumer,
    token: OAuth.Token,
  ) {
    let libraryBase = '';
    const oauth = new OAuth({
      consumer,
      signature_method: signatureMethod,
      hash_function(base, key) {
        libraryBase = base;
        const hash = signatureMethod === 'HMAC-SHA1' ? 'sha1' : 'sha256';
        return createHmac(hash, key).update(base).digest('base64');
      },
    });
    const authorization = oauth.authorize(request, token);
    // authorize() also copies the request's own parameters into its result; keep only its own.
    const protocol = PROTOCOL_PARAMS.map((name): OAuthParam => [name, String(authorization[name])]);
    return { protocol, signature: authorization.oauth_signature, libraryBase };
  }

  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 10 }),
    fc.string({
      unit: fc.constantFrom(
        ' ',
        '+',
        '&',
        '=',
        '%',
        '*',
        '~',
        '!',
        "'",
        '(',
        ')',
        '☃',
        '😀',
        'a',
        'Z',
      ),
      maxLength: 8,
    }),
  );
  // Names that would collide with the library's own keys or with Object.prototype members
  // ("constructor", "__proto__", ...) are mangled by its plain-object bookkeeping.
  const usableName = (name: string) => !name.startsWith('oauth_') && !(name in Object.prototype);
  const common = {
    signatureMethod: fc.constantFrom(...SIGNATURE_METHODS),
    method: fc.constantFrom('GET', 'get', 'Post', 'PUT', 'DELETE', 'patch'),
    protocol: fc.constantFrom('http' as const, 'https' as const),
    host: fc.constantFrom(
      'example.com',
      'photos.example.net',
      'api.example.org:8080',
      '127.0.0.1:3000',
    ),
    path: fc
      .array(fc.string({ unit: 'binary', maxLength: 6 }), { maxLength: 3 })
      .map((segments) => `/${segments.map(percentEncode).join('/')}`),
    consumer: fc.record({ key: anyText, secret: anyText }),
    token: fc.record({ key: anyText, secret: anyText }),
  };

  test('parameters in the URL query sign identically (HMAC-SHA1 and HMAC-SHA256)', () => {
    // oauth-1.0a's query parser deviates from RFC 5849 §3.4.1.3.1 in ways the generator avoids:
    // - it percent-decodes only values and then encodes names again, so a name that needs any
    //   encoding is double-encoded ("a%20b" signs as "a%2520b"): names are unreserved-only;
    // - it detects a repeated name by the truthiness of the value stored so far, so in
    //   "a=&a=x" the empty first value is dropped: a repeated name's first value is non-empty;
    // - "?" with nothing after it yields a parameter "" = "": no "?" without parameters;
    // - it splits pairs on every "=" and decodes with decodeURIComponent (no "+" as space), so
    //   the URL is written with percentEncode, whose output has neither "=" nor "+".
    const name = fc.stringMatching(/^[A-Za-z0-9\-._~]{0,6}$/).filter(usableName);
    const params = fc
      .array(fc.tuple(name, anyText, fc.boolean()), { maxLength: 6 })
      .filter((list) =>
        list.every(([n, value], i) => value !== '' || !list.some(([m], j) => j > i && m === n)),
      );
    fc.assert(
      fc.property(fc.record({ ...common, params }), (input) => {
        // With an empty value, the "=" is sometimes left out ("c2" in the RFC example).
        const query = input.params
          .map(([n, value, bare]) =>
            value === '' && bare && n !== '' ? n : `${percentEncode(n)}=${percentEncode(value)}`,
          )
          .join('&');
        const baseUrl = `${input.protocol}://${input.host}${input.path}`;
        const url = query === '' ? baseUrl : `${baseUrl}?${query}`;
        const library = librarySign(
          input.signatureMethod,
          { url, method: input.method },
          input.consumer,
          input.token,
        );
        const ours = signatureBaseString(
          input.method,
          baseStringUri(input.protocol, input.host, input.path),
          [...parseFormEncoded(query), ...library.protocol],
        );
        expect(ours).toBe(library.libraryBase);
        const signature = sign(
          input.signatureMethod,
          ours,
          input.consumer.secret,
          input.token.secret,
        );
        expect(signature).toBe(library.signature);
        expect(signaturesMatch(signature, library.signature)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test('arbitrary parameter names passed as form data sign identically', () => {
    // Given as an object, oauth-1.0a encodes names once, correctly, but names cannot repeat.
    const data = fc.dictionary(anyText.filter(usableName), anyText, { maxKeys: 6 });
    fc.assert(
      fc.property(fc.record({ ...common, data }), (input) => {
        const form = Object.entries(input.data)
          .map(([n, value]) => `${percentEncode(n)}=${percentEncode(value)}`.replace(/%20/g, '+'))
          .join('&');
        const library = librarySign(
          input.signatureMethod,
          {
            url: `${input.protocol}://${input.host}${input.path}`,
            method: input.method,
            data: { ...input.data },
          },
          input.consumer,
          input.token,
        );
        const ours = signatureBaseString(
          input.method,
          baseStringUri(input.protocol, input.host, input.path),
          [...parseFormEncoded(form), ...library.protocol],
        );
        expect(ours).toBe(library.libraryBase);
        expect(sign(input.signatureMethod, ours, input.consumer.secret, input.token.secret)).toBe(
          library.signature,
        );
      }),
      { numRuns: 200 },
    );
  });
});
