// Every command at once, checked synchronously (the argument tests). The CLI
// itself loads only the module of the command it runs (./command-index.ts).
import { commands as admins } from "./admins";
import { commands as alerts } from "./alerts";
import { commands as adminsUsers } from "./admins-users";
import { commands as audit } from "./audit";
import { commands as backup } from "./backup";
import { commands as catalog } from "./catalog";
import { checkArgs, type Commands } from "./check-args";
import { commands as claims } from "./claims";
import { commands as levels } from "./levels";
import { commands as orders } from "./orders";
import { commands as payments } from "./payments";
import { commands as fulfiller } from "./fulfiller";
import { commands as portal } from "./portal";
import { commands as prices } from "./prices";
import { commands as sources } from "./sources";
import { commands as upstream } from "./upstream";

export const COMMANDS: Commands = {
  ...adminsUsers,
  ...admins,
  ...catalog,
  ...levels,
  ...prices,
  ...orders,
  ...claims,
  ...upstream,
  ...sources,
  ...backup,
  ...audit,
  ...alerts,
  ...portal,
  ...payments,
  ...fulfiller,
};

/** Validates the arguments of one command without touching the database. */
export const parseCommand = (argv: string[]) => checkArgs(COMMANDS, argv);
