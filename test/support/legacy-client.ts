import request from 'supertest';
import type { Credentials, TestApp } from './test-app';

/**
 * The legacy interfaces in-process as `who` (Basic credentials): `json` takes paths below `/api/1`,
 * `xml` root paths, with an `application/xml` body when one is given.
 */
export function legacyClient(t: TestApp, who: Credentials) {
  const as = (req: request.Test) => req.auth(who.login, who.password);
  const http = request(t.app.express);
  return {
    json: {
      get: (path: string) => as(http.get(`/api/1${path}`)),
      post: (path: string, body: object) => as(http.post(`/api/1${path}`)).send(body),
      put: (path: string, body: object) => as(http.put(`/api/1${path}`)).send(body),
    },
    xml: (method: 'get' | 'post' | 'put', path: string, body?: string) => {
      const req = as(http[method](path));
      return body === undefined ? req : req.type('application/xml').send(body);
    },
  };
}
