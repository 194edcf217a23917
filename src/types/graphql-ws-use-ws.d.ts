// graphql-ws publishes `graphql-ws/use/ws` through package.json "exports" only, which this
// project's module resolution (node10, for CommonJS output) does not read; Node itself does, at
// run time. This points the compiler at the same declarations.
declare module 'graphql-ws/use/ws' {
  export * from 'graphql-ws/dist/use/ws.cjs';
}
