import { describe, expect, it } from 'vitest';
import { FormError, parseForm } from './form-body.js';

describe('parseForm', () => {
  it('reads nested objects, [] arrays and the stripe SDK indexed arrays as Stripe does', () => {
    expect(
      parseForm(
        'email=a%40b.c&metadata[k]=v&metadata[empty]=&expand[]=a&expand[]=b.c&items[0][price]=p1&items[1][price]=p2&items[1][quantity]=2',
      ),
    ).toEqual({
      email: 'a@b.c',
      metadata: { k: 'v', empty: '' },
      expand: ['a', 'b.c'],
      items: [{ price: 'p1' }, { price: 'p2', quantity: '2' }],
    });
    expect(parseForm('expand[0]=latest_invoice.confirmation_secret')).toEqual({
      expand: ['latest_invoice.confirmation_secret'],
    });
    expect(parseForm('pause_collection=')).toEqual({ pause_collection: '' });
  });

  it('refuses malformed names and prototype keys', () => {
    for (const body of ['a]=1', 'a[b=1', 'a=1&a[b]=2', '__proto__[x]=1', 'metadata[constructor]=1']) {
      expect(() => parseForm(body), body).toThrow(FormError);
    }
    expect(Object.getPrototypeOf(parseForm('a[b]=1').a)).toBe(Object.prototype);
  });
});
