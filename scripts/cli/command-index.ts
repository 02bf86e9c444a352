// Which module holds each command, so a CLI run loads only the module of the
// command it runs and the services that one imports (issue 28.4, decision
// 0048). The names are typechecked against each module's `commands`: a name
// missing here, or one the module does not have, does not compile.
import type { Commands } from "./check-args";

interface Group {
  load: () => Promise<Commands>;
  names: string[];
}

/** `names` must list exactly the keys of the module's `commands` (NoInfer: they are checked, not inferred). */
function group<C extends object>(load: () => Promise<{ commands: C }>, names: NoInfer<{ [K in keyof C]: true }>): Group {
  return { load: async () => (await load()).commands as never, names: Object.keys(names) };
}

const GROUPS: Group[] = [
  group(() => import("./admins-users"), {
    "admin:create": true,
    "user:create": true,
    "points:adjust": true,
    "points:reconcile": true,
    "apikey:create": true,
    "apikey:disable": true,
    "apikey:acg": true,
  }),
  group(() => import("./admins"), { "admin:password": true, "admin:disable": true, "admin:unlock": true }),
  group(() => import("./catalog"), { "settings:set": true, "catalog-event:list": true, "catalog:import": true }),
  group(() => import("./levels"), { "level:create": true, "level:rename": true, "level:list": true, "user:level": true }),
  group(() => import("./prices"), {
    "price:contract:set": true,
    "price:contract:list": true,
    "price:tiers:set": true,
    "user:credit": true,
  }),
  group(() => import("./orders"), { "order:deliver": true, "order:fail": true }),
  group(() => import("./claims"), {
    "claim:list": true,
    "claim:resolve": true,
    "order:refund": true,
    "product:after-sales": true,
  }),
  group(() => import("./upstream"), {
    "upstream:add": true,
    "upstream:catalog-webhook": true,
    "upstream:import": true,
    "upstream:held": true,
    "upstream:accept": true,
    "upstream:max-cost": true,
    "upstream:list": true,
  }),
  group(() => import("./sources"), { "sku:sources": true, "sku:refresh-stock": true }),
  group(() => import("./backup"), { backup: true, "backup:verify": true, restore: true }),
  group(() => import("./audit"), { "audit:list": true }),
  group(() => import("./alerts"), {
    "alerts:channel:add": true,
    "alerts:channel:list": true,
    "alerts:channel:remove": true,
    "alerts:test": true,
    "alerts:rule:set": true,
    "alerts:upstream-balance": true,
    "alerts:list": true,
    "sku:threshold": true,
    "alerts:telegram:bind": true,
  }),
  group(() => import("./portal"), {
    "user:invite": true,
    "user:two-factor-off": true,
    "user:disable": true,
    "topup:list": true,
    "topup:approve": true,
    "topup:reject": true,
  }),
  group(() => import("./payments"), {
    "payments:channel:add": true,
    "payments:channel:list": true,
    "payments:channel:disable": true,
    "payments:list": true,
    "payments:query": true,
    "payments:confirm": true,
  }),
  group(() => import("./fulfiller"), {
    "fulfiller:create": true,
    "fulfiller:list": true,
    "fulfiller:revoke": true,
  }),
];

/** The module of command `name`; every command for `help` or an unknown name (the usage lists them all). */
export async function commandsFor(name: string | undefined): Promise<Commands> {
  const own = GROUPS.find((g) => name !== undefined && g.names.includes(name));
  return own ? own.load() : (await import("./parse-command")).COMMANDS;
}

/** Every command name, by module (the index test compares them with the modules). */
export const INDEXED_NAMES = GROUPS.map((g) => g.names);
