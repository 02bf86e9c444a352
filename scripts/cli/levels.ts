// Member levels and a buyer's level (issue 12.4).
import { z } from "zod";
import { LevelNameSchema, LevelSlugSchema } from "../../lib/levels/level-input";
import { EmailSchema } from "../../lib/users/email";
import { CLI_ACTOR as actor } from "../../lib/audit/actor";
import { command } from "./command";

const NAME_OPTIONS = { slug: { type: "string" }, "name-en": { type: "string" }, "name-zh": { type: "string" } } as const;
// Flat options, checked with the services' own rules; the zod paths stay the option names.
const NamedLevel = z.object({ slug: LevelSlugSchema, "name-en": LevelNameSchema.shape.en, "name-zh": LevelNameSchema.shape["zh-CN"] });
const nameOf = (a: z.output<typeof NamedLevel>) => ({ "zh-CN": a["name-zh"], en: a["name-en"] });

type Level = { id: number; slug: string; name: unknown; isDefault: boolean; sortOrder: number };
const view = (l: Level) => ({ id: l.id, slug: l.slug, name: l.name, is_default: l.isDefault, sort_order: l.sortOrder });

export const commands = {
  "level:create": command({
    usage: "level:create --slug S --name-en N --name-zh N",
    options: NAME_OPTIONS,
    input: (v) => v,
    schema: NamedLevel,
    run: async (a) => {
      const { createLevel } = await import("../../lib/levels/create-level");
      return view(await createLevel({ slug: a.slug, name: nameOf(a) }, { actor }));
    },
  }),
  "level:rename": command({
    usage: "level:rename --slug S --name-en N --name-zh N",
    options: NAME_OPTIONS,
    input: (v) => v,
    schema: NamedLevel,
    run: async (a) => {
      const { renameLevel } = await import("../../lib/levels/rename-level");
      return view(await renameLevel({ slug: a.slug, name: nameOf(a) }, { actor }));
    },
  }),
  "level:list": command({
    usage: "level:list",
    options: {},
    input: () => ({}),
    schema: z.object({}),
    run: async () => {
      const { listLevels } = await import("../../lib/levels/list-levels");
      return { levels: (await listLevels()).map((l) => ({ ...view(l), users: l.users, sku_prices: l.skuPrices })) };
    },
  }),
  "user:level": command({
    usage: "user:level --email E --level S",
    options: { email: { type: "string" }, level: { type: "string" } },
    input: (v) => v,
    schema: z.object({ email: EmailSchema, level: LevelSlugSchema }),
    run: async (a) => {
      const { setMemberLevel } = await import("../../lib/users/set-member-level");
      const r = await setMemberLevel({ email: a.email, level: a.level }, { actor });
      return { id: r.userId, email: r.email, level: r.level, previous_level: r.previousLevel };
    },
  }),
};
