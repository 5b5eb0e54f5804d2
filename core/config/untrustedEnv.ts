/**
 * The environment of a run without trust: it reads nothing. Every lookup answers `undefined` and no
 * name is listed, so a `${VAR}`, `password_env`, `api_key_env` or `{{env.X}}` a workspace file names is
 * never read from the real environment. Code that would report such a variable as "not set" asks
 * `isUntrustedEnv` to say instead that it was not read because the workspace is not trusted.
 */
export type Env = Readonly<Record<string, string | undefined>>;

const untrusted = new WeakSet<object>();

/** An environment that reads nothing; `asked` (optional) hears each name looked up, for tests. */
export function untrustedEnv(asked?: (name: string) => void): Env {
  const env = new Proxy(Object.freeze({}) as Env, {
    get: (_target, key) => {
      if (typeof key === 'string') asked?.(key);
      return undefined;
    },
    has: () => false,
    ownKeys: () => [],
    getOwnPropertyDescriptor: () => undefined,
  });
  untrusted.add(env);
  return env;
}

/** Whether `env` is one `untrustedEnv` made: the workspace is not trusted. */
export function isUntrustedEnv(env: object): boolean {
  return untrusted.has(env);
}

/** Why a variable a workspace file names has no value in a run without trust. */
export function notReadReason(name: string): string {
  return `\`\${${name}}\` was not read: the workspace is not trusted, and a run without trust reads no environment variable a workspace file names (trust the workspace, or run without --untrusted, to use it)`;
}
