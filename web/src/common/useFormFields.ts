import { useCallback, useState } from 'react';

/**
 * A form's values and its per-field errors. `set` changes one field and clears that field's error only:
 * the other messages stay until the next check.
 */
export function useFormFields<V extends object, E extends object>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<E>({} as E);
  const set = useCallback(<K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  }, []);
  return { values, setValues, errors, setErrors, set };
}

/** The `set` of useFormFields, for the step components of a form. */
export type FieldSetter<V> = <K extends keyof V>(key: K, value: V[K]) => void;
