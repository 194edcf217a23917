// graphql-schema-linter 3 ships no type declarations; these cover the one entry the schema lint
// test uses: its command-line runner, which takes the streams and argv it would get from a shell.
declare module 'graphql-schema-linter' {
  export const runner: {
    run(
      stdout: NodeJS.WritableStream,
      stdin: NodeJS.ReadableStream,
      stderr: NodeJS.WritableStream,
      argv: string[],
    ): Promise<number>;
  };
}
