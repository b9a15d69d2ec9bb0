// The small design system: buttons, fields, cards, page frames. Styles in styles.css.
import { forwardRef, useId, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

export function Button({ variant = 'primary', busy = false, children, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' | 'danger' | 'ghost'; busy?: boolean }) {
  return (
    <button {...props} className={`btn btn-${variant} ${props.className ?? ''}`} disabled={props.disabled || busy} aria-busy={busy || undefined}>
      {busy && <span className="spinner spinner-small" aria-hidden="true" />}
      {children}
    </button>
  );
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | undefined; hint?: string };

export const TextField = forwardRef<HTMLInputElement, FieldProps>(function TextField({ label, error, hint, id, ...props }, ref) {
  const generated = useId();
  const inputId = id ?? generated;
  const described = [hint ? `${inputId}-hint` : '', error ? `${inputId}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input ref={ref} id={inputId} aria-invalid={error ? true : undefined} aria-describedby={described} {...props} />
      {hint && <p id={`${inputId}-hint`} className="field-hint">{hint}</p>}
      {error && <p id={`${inputId}-error`} className="field-error" role="alert">{error}</p>}
    </div>
  );
});

/** A checkbox with its label and, below it, what it means. */
export const CheckField = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string | undefined }>(function CheckField({ label, hint, id, ...props }, ref) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <div className="check-field">
      <input ref={ref} id={inputId} type="checkbox" aria-describedby={hint ? `${inputId}-hint` : undefined} {...props} />
      <div>
        <label htmlFor={inputId}>{label}</label>
        {hint && (
          <p id={`${inputId}-hint`} className="field-hint">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
});

/** A text of several lines (a description): as TextField, written in its own direction. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string | undefined }>(function TextAreaField(
  { label, error, id, ...props },
  ref,
) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <div className="field">
      <label htmlFor={fieldId}>{label}</label>
      <textarea ref={ref} id={fieldId} rows={3} dir="auto" aria-invalid={error ? true : undefined} aria-describedby={error ? `${fieldId}-error` : undefined} {...props} />
      {error && <p id={`${fieldId}-error`} className="field-error" role="alert">{error}</p>}
    </div>
  );
});

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & { label: string; children: ReactNode };

export function SelectField({ label, id, children, ...props }: SelectProps) {
  const generated = useId();
  const selectId = id ?? generated;
  return (
    <div className="field">
      <label htmlFor={selectId}>{label}</label>
      <select id={selectId} {...props}>
        {children}
      </select>
    </div>
  );
}

export function FormError({ message }: { message?: string | undefined }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}

export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <section className={`card ${className}`}>{children}</section>;
}

export function Spinner({ label }: { label: string }) {
  return (
    <div className="spinner-block" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}

/** A centred card page: sign-in, sign-up and the other public screens. */
export function AuthFrame({ title, intro, children, footer }: { title: string; intro?: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="auth-frame">
      <div className="brand" aria-hidden="true">
        <span className="brand-mark">P</span> Parla
      </div>
      <Card className="auth-card">
        <h1>{title}</h1>
        {intro && <p className="muted">{intro}</p>}
        {children}
      </Card>
      {footer && <div className="auth-footer">{footer}</div>}
    </main>
  );
}

/** What a screen shows when its data could not be loaded: the reason and a retry button. */
export function LoadFailed({ message, retryLabel, onRetry }: { message: string; retryLabel: string; onRetry: () => void }) {
  return (
    <Card>
      <p>{message}</p>
      <Button variant="secondary" onClick={onRetry}>
        {retryLabel}
      </Button>
    </Card>
  );
}
