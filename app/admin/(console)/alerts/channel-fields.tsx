"use client";

import { useState } from "react";
import { TextField } from "@/components/form-fields";

type Kind = "telegram" | "email" | "webhook" | "wecom" | "dingtalk" | "feishu";

/**
 * Issue 35.3: the add-a-channel form shows only the fields of the chosen kind.
 * The others stay in the form, hidden, so switching back keeps what was typed;
 * the action reads only the chosen kind's fields.
 */
export function ChannelFields({
  kinds,
  labels,
  security,
}: {
  kinds: { value: Kind; label: string }[];
  labels: Record<
    | "kind"
    | "kindHelp"
    | "name"
    | "botToken"
    | "secretHelp"
    | "chatId"
    | "apiBase"
    | "smtpHost"
    | "smtpPort"
    | "smtpSecurity"
    | "smtpUser"
    | "smtpPassword"
    | "smtpUrl"
    | "from"
    | "to"
    | "url",
    string
  >;
  security: { value: string; label: string }[];
}) {
  const [kind, setKind] = useState<Kind>("telegram");
  const group = kind === "telegram" || kind === "email" ? kind : "url";
  return (
    <>
      <div className="field">
        <label htmlFor="f-kind">{labels.kind}</label>
        <select id="f-kind" name="kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          {kinds.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
        <div className="help">{labels.kindHelp}</div>
      </div>
      <TextField name="name" label={labels.name} />
      <div className="form-group" hidden={group !== "telegram"} data-kind="telegram">
        <TextField name="botToken" type="password" label={labels.botToken} help={labels.secretHelp} autoComplete="off" />
        <TextField name="chatId" label={labels.chatId} />
        <TextField name="apiBase" type="url" label={labels.apiBase} placeholder="https://api.telegram.org" />
      </div>
      <div className="form-group" hidden={group !== "email"} data-kind="email">
        <TextField name="smtpHost" label={labels.smtpHost} />
        <TextField name="smtpPort" label={labels.smtpPort} inputMode="numeric" placeholder="587" />
        <div className="field">
          <label htmlFor="f-smtpSecurity">{labels.smtpSecurity}</label>
          <select id="f-smtpSecurity" name="smtpSecurity" defaultValue="starttls">
            {security.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <TextField name="smtpUser" label={labels.smtpUser} autoComplete="off" />
        <TextField name="smtpPassword" type="password" label={labels.smtpPassword} help={labels.secretHelp} autoComplete="off" />
        <TextField name="smtpUrl" type="password" label={labels.smtpUrl} help={labels.secretHelp} autoComplete="off" />
        <TextField name="from" type="email" label={labels.from} />
        <TextField name="to" label={labels.to} />
      </div>
      <div className="form-group" hidden={group !== "url"} data-kind="url">
        <TextField name="url" type="password" label={labels.url} help={labels.secretHelp} autoComplete="off" />
      </div>
    </>
  );
}
