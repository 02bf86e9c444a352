import type { ReactNode } from "react";

type InputType = "text" | "email" | "password" | "number" | "url";

/** A labelled control with its optional help line (the frame TextField and TextArea share). */
function Field({ id, label, help, children }: { id: string; label: string; help?: ReactNode; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {help ? <div className="help">{help}</div> : null}
    </div>
  );
}

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
    <Field id={id} label={props.label} help={props.help}>
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
    </Field>
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
    <Field id={id} label={props.label} help={props.help}>
      <textarea id={id} name={props.name} defaultValue={props.defaultValue} required={props.required} rows={props.rows} />
    </Field>
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
