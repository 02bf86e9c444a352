import { z } from "zod";
import { Slug } from "../input/slug";

// What a member level is made of, as the console, the CLI and the catalogue
// file type it (issue 12.4). The slug is the level's name in catalogue files
// and on the command line, so it is checked like every other slug and never
// changes; the display name may be renamed.

export const LevelSlugSchema = Slug;

const NamePart = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");

/** A level's display name: both languages, neither empty (D5, D16). */
export const LevelNameSchema = z.strictObject({ "zh-CN": NamePart, en: NamePart });
export type LevelName = z.output<typeof LevelNameSchema>;
