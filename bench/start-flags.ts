/**
 * The Node flags of package.json's start script (`node [flags] dist/src/main.js serve`): how
 * `npm start` runs the service, which the bench and the README tour start it with too.
 */
export function startFlags(start: string): string[] {
  const flags = /^node ((?:--\S+ )*)dist\/src\/main\.js serve$/.exec(start);
  if (!flags)
    throw new Error("package.json's start script is not `node [flags] dist/src/main.js serve`");
  return flags[1]!.split(' ').filter(Boolean);
}
