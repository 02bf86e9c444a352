import type { ReactNode } from "react";

type InputType = "text" | "email" | "password" | "number" | "url";

export function TextField(props: {
  name: string;
  label: string;
  id?: string;
  type?: InputType;
  defaultValue?: string | number;
  help?: ReactNode;
  required?: boolean;
  placeholder?: string;
  autoComplete?: string;
  inputMode?: "numeric" | "decimal" | "text";
  step?: string;
}) {
  const id = props.id ?? `f-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        defaultValue={props.defaultValue}
        required={props.required}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        step={props.step}
      />
      {props.help ? <div className="help">{props.help}</div> : null}
    </div>
  );
}

export function TextArea(props: {
  name: string;
  label: string;
  id?: string;
  defaultValue?: string;
  help?: ReactNode;
  required?: boolean;
  rows?: number;
}) {
  const id = props.id ?? `f-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <textarea id={id} name={props.name} defaultValue={props.defaultValue} required={props.required} rows={props.rows} />
      {props.help ? <div className="help">{props.help}</div> : null}
    </div>
  );
}

/** A checkbox that always submits a value ("true"/"false"), so "off" is sent too. */
export function Toggle(props: { name: string; label: string; defaultChecked?: boolean; help?: ReactNode }) {
  const id = `f-${props.name}`;
  return (
    <div className="field check">
      <input type="hidden" name={props.name} value="false" />
      <label htmlFor={id}>
        <input id={id} type="checkbox" name={props.name} value="true" defaultChecked={props.defaultChecked} />
        {props.label}
      </label>
      {props.help ? <div className="help">{props.help}</div> : null}
    </div>
  );
}

export function HiddenField({ name, value }: { name: string; value: string }) {
  return <input type="hidden" name={name} value={value} />;
}
