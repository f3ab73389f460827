import { useState } from 'react';

type TextName<Values> = { [Name in keyof Values]: Values[Name] extends string ? Name : never }[keyof Values];

/**
 * The values of a form that creates an item or edits one. It keeps the values it started from: an
 * update sends only what changed, and as the server refuses one that changes nothing, `unchanged`
 * says so instead.
 */
export function useEditForm<Values extends object>(valuesAtStart: () => Values) {
  const [initial] = useState(valuesAtStart);
  const [values, setValues] = useState(initial);
  const [unchanged, setUnchanged] = useState(false);

  const set = <Name extends keyof Values>(name: Name, value: Values[Name]) => {
    setValues((current) => ({ ...current, [name]: value }));
    setUnchanged(false);
  };

  return {
    initial,
    values,
    unchanged,
    set,
    /** A text input's value and change handler. */
    text: <Name extends TextName<Values>>(name: Name) => ({
      value: values[name] as string,
      onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
        set(name, event.currentTarget.value as Values[Name]),
    }),
    /** Hands the changes to `save`, unless there are none. */
    saveChanges: <Changes extends object>(changes: Changes, save: (changes: Changes) => void) => {
      if (Object.keys(changes).length === 0) setUnchanged(true);
      else save(changes);
    },
  };
}
