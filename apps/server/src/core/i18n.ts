// Server-side messages (error details, e-mails, tone labels), chosen by Accept-Language.
import { FALLBACK_LANGUAGE, type Language, type Tone } from '@parla/contract/constants';

const en = {
  // validation
  required: 'This field is required.',
  invalidType: 'Expected {expected}, received {received}.',
  tooShort: 'Ensure this field has at least {min} characters.',
  tooLong: 'Ensure this field has no more than {max} characters.',
  tooFewItems: 'Ensure this list has at least {min} items.',
  tooManyItems: 'Ensure this list has no more than {max} items.',
  numberTooSmall: 'Ensure this value is greater than or equal to {min}.',
  numberTooBig: 'Ensure this value is less than or equal to {max}.',
  invalidEmail: 'Enter a valid e-mail address.',
  invalidFormat: 'Enter a valid value.',
  invalidChoice: '"{input}" is not a valid choice.',
  invalidJson: 'The request body is not valid JSON.',
  unsupportedMediaType: 'Unsupported media type "{type}" in request.',
  bodyTooLarge: 'The request body is too large.',
  // accounts
  passwordMismatch: "The two password fields didn't match.",
  passwordTooShort: 'This password is too short. It must contain at least {min} characters.',
  passwordTooCommon: 'This password is too common.',
  passwordLikeEmail: 'The password is too similar to the e-mail address.',
  badCredentials: 'Unable to log in with provided credentials.',
  emailNotVerified: 'E-mail is not verified.',
  verificationSent: 'Verification e-mail sent.',
  activationInvalid: 'This activation link is invalid or has expired.',
  activated: 'Your e-mail address is verified.',
  loggedOut: 'Successfully logged out.',
  passwordChanged: 'New password has been saved.',
  resetSent: 'Password reset e-mail has been sent.',
  resetDone: 'Password has been reset with the new password.',
  resetInvalid: 'This password reset link is invalid or has expired.',
  tokenInvalid: 'Token is invalid or expired.',
  tokenValid: 'Token is valid.',
  notAuthenticated: 'Authentication credentials were not provided.',
  csrfFailed: 'CSRF check failed: the X-XSRF-TOKEN header is missing or wrong.',
  avatarInvalid: 'Upload a valid image: PNG, JPEG, WebP or GIF.',
  avatarTooLarge: 'The image is larger than {max} MB.',
  tooManyFiles: 'Send one file only.',
  unknownField: 'Unknown field "{field}".',
  // generic
  notFound: 'Not found.',
  methodNotAllowed: 'Method "{method}" not allowed.',
  throttled: 'Request was throttled. Expected available in {seconds} seconds.',
  serverError: 'A server error occurred.',
  // e-mails
  activationSubject: 'Activate your Parla account',
  activationBody:
    'Hello {name},\n\nWelcome to Parla. Open this link to activate your account:\n\n{link}\n\nThe link works once and expires in 3 days. If you did not sign up, ignore this e-mail.',
  alreadyRegisteredSubject: 'Your Parla account',
  alreadyRegisteredBody:
    'Hello {name},\n\nSomeone tried to sign up with this e-mail address, but it already has an account. If it was you, sign in, or reset your password here:\n\n{link}\n\nIf it was not you, ignore this e-mail.',
  resetSubject: 'Reset your Parla password',
  resetBody:
    'Hello {name},\n\nOpen this link to choose a new password:\n\n{link}\n\nThe link works once and expires in 24 hours. If you did not ask for it, ignore this e-mail.',
} as const;

export type MessageKey = keyof typeof en;
type Catalogue = Record<MessageKey, string>;

const es: Catalogue = {
  required: 'Este campo es obligatorio.',
  invalidType: 'Se esperaba {expected}, se recibió {received}.',
  tooShort: 'Asegúrese de que este campo tenga al menos {min} caracteres.',
  tooLong: 'Asegúrese de que este campo no tenga más de {max} caracteres.',
  tooFewItems: 'Asegúrese de que esta lista tenga al menos {min} elementos.',
  tooManyItems: 'Asegúrese de que esta lista no tenga más de {max} elementos.',
  numberTooSmall: 'Asegúrese de que este valor sea mayor o igual a {min}.',
  numberTooBig: 'Asegúrese de que este valor sea menor o igual a {max}.',
  invalidEmail: 'Introduzca una dirección de correo electrónico válida.',
  invalidFormat: 'Introduzca un valor válido.',
  invalidChoice: '"{input}" no es una opción válida.',
  invalidJson: 'El cuerpo de la petición no es JSON válido.',
  unsupportedMediaType: 'Tipo de medio "{type}" no soportado en la petición.',
  bodyTooLarge: 'El cuerpo de la petición es demasiado grande.',
  passwordMismatch: 'Los dos campos de contraseña no coinciden.',
  passwordTooShort: 'La contraseña es demasiado corta. Debe contener al menos {min} caracteres.',
  passwordTooCommon: 'Esta contraseña es demasiado común.',
  passwordLikeEmail: 'La contraseña se parece demasiado a la dirección de correo.',
  badCredentials: 'No se puede iniciar sesión con las credenciales proporcionadas.',
  emailNotVerified: 'El correo electrónico no está verificado.',
  verificationSent: 'Correo de verificación enviado.',
  activationInvalid: 'Este enlace de activación no es válido o ha caducado.',
  activated: 'Su dirección de correo está verificada.',
  loggedOut: 'Sesión cerrada correctamente.',
  passwordChanged: 'Se ha guardado la nueva contraseña.',
  resetSent: 'Se ha enviado el correo para restablecer la contraseña.',
  resetDone: 'La contraseña se ha restablecido con la nueva contraseña.',
  resetInvalid: 'Este enlace para restablecer la contraseña no es válido o ha caducado.',
  tokenInvalid: 'El token no es válido o ha caducado.',
  tokenValid: 'El token es válido.',
  notAuthenticated: 'No se proporcionaron las credenciales de autenticación.',
  csrfFailed: 'Falló la comprobación CSRF: falta la cabecera X-XSRF-TOKEN o es incorrecta.',
  avatarInvalid: 'Suba una imagen válida: PNG, JPEG, WebP o GIF.',
  avatarTooLarge: 'La imagen supera los {max} MB.',
  tooManyFiles: 'Envíe un solo archivo.',
  unknownField: 'Campo desconocido "{field}".',
  notFound: 'No encontrado.',
  methodNotAllowed: 'Método "{method}" no permitido.',
  throttled: 'Petición limitada. Estará disponible en {seconds} segundos.',
  serverError: 'Se produjo un error en el servidor.',
  activationSubject: 'Active su cuenta de Parla',
  activationBody:
    'Hola {name}:\n\nBienvenido a Parla. Abra este enlace para activar su cuenta:\n\n{link}\n\nEl enlace funciona una sola vez y caduca en 3 días. Si no se registró, ignore este correo.',
  alreadyRegisteredSubject: 'Su cuenta de Parla',
  alreadyRegisteredBody:
    'Hola {name}:\n\nAlguien intentó registrarse con esta dirección, pero ya tiene una cuenta. Si fue usted, inicie sesión o restablezca su contraseña aquí:\n\n{link}\n\nSi no fue usted, ignore este correo.',
  resetSubject: 'Restablezca su contraseña de Parla',
  resetBody:
    'Hola {name}:\n\nAbra este enlace para elegir una nueva contraseña:\n\n{link}\n\nEl enlace funciona una sola vez y caduca en 24 horas. Si no lo pidió, ignore este correo.',
};

const toneLabels: Record<'en' | 'es', Record<Tone, string>> = {
  en: {
    DEFAULT: 'Default', ACADEMIC: 'Academic', APPRECIATIVE: 'Appreciative', ANALYTICAL: 'Analytical',
    CASUAL: 'Casual', CHEERFUL: 'Cheerful', DESCRIPTIVE: 'Descriptive', FORMAL: 'Formal',
    FRIENDLY: 'Friendly', HUMOROUS: 'Humorous', INFORMATIVE: 'Informative',
    INSPIRATIONAL: 'Inspirational', INTIMATE: 'Intimate', PERSUASIVE: 'Persuasive', SERIOUS: 'Serious',
  },
  es: {
    DEFAULT: 'Predeterminado', ACADEMIC: 'Académico', APPRECIATIVE: 'Agradecido', ANALYTICAL: 'Analítico',
    CASUAL: 'Informal', CHEERFUL: 'Alegre', DESCRIPTIVE: 'Descriptivo', FORMAL: 'Formal',
    FRIENDLY: 'Amistoso', HUMOROUS: 'Humorístico', INFORMATIVE: 'Informativo',
    INSPIRATIONAL: 'Inspirador', INTIMATE: 'Íntimo', PERSUASIVE: 'Persuasivo', SERIOUS: 'Serio',
  },
};

const catalogues: Partial<Record<Language, Catalogue>> = { en, es };
export const SERVER_LANGUAGES = Object.keys(catalogues) as Language[];

type Params = Record<string, string | number>;

function interpolate(template: string, params: Params = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export function translate(lang: Language, key: MessageKey, params?: Params): string {
  const catalogue = catalogues[lang] ?? en;
  return interpolate(catalogue[key], params);
}

export function toneLabel(lang: Language, tone: Tone): string {
  return (lang === 'es' ? toneLabels.es : toneLabels.en)[tone];
}

/** Picks the best language we have messages for from an Accept-Language header. */
export function negotiateLanguage(header: string | undefined): Language {
  if (!header) return FALLBACK_LANGUAGE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { base: tag.trim().toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.base && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { base } of ranked) {
    if ((SERVER_LANGUAGES as string[]).includes(base)) return base as Language;
  }
  return FALLBACK_LANGUAGE;
}
