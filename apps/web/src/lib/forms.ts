// Server field errors into a react-hook-form form: fields under their names, the rest under "form".
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { FORM_ERROR_KEY, FieldErrors } from './error-catalogue';

export const ROOT_FORM_ERROR = `root.${FORM_ERROR_KEY}` as const;

/** Returns true when the error was shown on the form; other errors were handled elsewhere. */
export function showServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, known: readonly string[]): boolean {
  if (!(error instanceof FieldErrors)) return false;
  const general: string[] = [];
  for (const [attr, message] of Object.entries(error.fields)) {
    if (known.includes(attr)) setError(attr as Path<T>, { type: 'server', message });
    else general.push(message);
  }
  if (general.length) {
    setError(ROOT_FORM_ERROR as Path<T>, { type: 'server', message: [...new Set(general)].join(' ') });
    error.shownInForm = true;
  }
  return true;
}
