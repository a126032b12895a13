/**
 * A part the texts put into sentences (a settled payment's step, "zmiana wiadomości prywatnej
 * członka"), in each grammatical case a sentence takes it in. Polish declines it: „Discord odrzucił
 * zmianę…” takes the accusative, a status line „link X: zmiana…” the nominative. One string for both
 * was a case error on an admin screen; here each form is its own type, and a text's signature (in
 * en.ts) says which one it takes, so handing it the wrong one fails the type check, not a reader.
 *
 * English has no such cases: its parts are the same text in every case (`caseless`).
 */

declare const grammaticalCase: unique symbol;

/** The form a name takes as a sentence's subject or on its own („zmiana wiadomości prywatnej członka”). */
export type Nominative = string & { readonly [grammaticalCase]: 'nominative' };
/** The form a name takes as a verb's object („Discord odrzucił zmianę wiadomości prywatnej członka”). */
export type Accusative = string & { readonly [grammaticalCase]: 'accusative' };

/** A name in each case the texts use it in. */
export interface Declined {
  readonly nominative: Nominative;
  readonly accusative: Accusative;
}

/** A Polish name's forms, each written out (even when two are the same word: the writer checked). */
export function declined(forms: { nominative: string; accusative: string }): Declined {
  return { nominative: forms.nominative as Nominative, accusative: forms.accusative as Accusative };
}

/** A name that is the same in every case (English; a store's name, which no sentence declines). */
export function caseless(name: string): Declined {
  return declined({ nominative: name, accusative: name });
}

/**
 * Discord's permission names as a sentence takes them. They never decline: in Polish each stands
 * quoted after the noun „uprawnienie”, which takes the case („ma uprawnienia „Wyrzucanie członków”
 * i „Zarządzanie rolami””), so a name holding a comma („Wzmiankowanie @everyone, @here i wszystkich
 * ról”) cannot run into the next. Built only by the catalogue's `rewards.permissionList`.
 */
export type PermissionNames = string & { readonly [grammaticalCase]: 'permission names' };

/** The catalogue's list of permission names, as its language writes it. */
export function permissionNames(text: string): PermissionNames {
  return text as PermissionNames;
}
