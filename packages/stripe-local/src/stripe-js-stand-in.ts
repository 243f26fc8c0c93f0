/**
 * The stand-in Stripe.js for local mode: `window.Stripe(publishableKey)` with the calls
 * `@stripe/stripe-js` and `@stripe/react-stripe-js` make (read from their code: `version`,
 * `elements`, `createToken`, `createPaymentMethod`, `confirmCardPayment`, `_registerWrapper`,
 * `registerAppInfo`; elements: `create`, `getElement`, `update`; an element: `mount`, `on`, `off`,
 * `update`, `destroy`), plus `confirmCardSetup` and `handleNextAction`, all against the built-in
 * provider with the publishable key. The card element mounts plain inputs for number, expiry, CVC
 * and postal code: card data goes only to the built-in provider, as it would go only to Stripe.
 *
 * Plain ES2017 in a string, served as a classic `<script>` before the app bundle.
 */
export function stripeJsStandIn(apiBase: string): string {
  return `/* Scrub: stand-in Stripe.js for the built-in payment provider (local mode only). */
(function () {
var API = ${JSON.stringify(apiBase)};
${BODY}
})();
`;
}

const BODY = String.raw`
'use strict';
if (typeof window === 'undefined' || window.Stripe) return;

function encode(value, prefix, pairs) {
  if (value === undefined) return pairs;
  if (value === null || typeof value !== 'object') {
    pairs.push(encodeURIComponent(prefix) + '=' + encodeURIComponent(value === null ? '' : String(value)));
  } else if (Array.isArray(value)) {
    value.forEach(function (v) { encode(v, prefix + '[]', pairs); });
  } else {
    Object.keys(value).forEach(function (k) { encode(value[k], prefix ? prefix + '[' + k + ']' : k, pairs); });
  }
  return pairs;
}

function request(key, method, path, params) {
  var body = params ? encode(params, '', []).join('&') : '';
  var url = API + '/v1/' + path + (method === 'GET' && body ? '?' + body : '');
  return fetch(url, {
    method: method,
    headers: { authorization: 'Bearer ' + key, 'content-type': 'application/x-www-form-urlencoded' },
    body: method === 'GET' ? undefined : body,
  }).then(function (res) {
    return res.json().then(function (json) {
      if (json && json.error) return { error: json.error };
      return { value: json };
    });
  }, function (err) {
    return { error: { type: 'api_connection_error', message: 'Could not reach the payment provider: ' + (err && err.message) } };
  });
}

function intentId(clientSecret) {
  var match = /^((?:pi|seti)_[A-Za-z0-9]+)_secret_/.exec(String(clientSecret || ''));
  return match ? match[1] : null;
}

// ---- the card element ----

var MESSAGES = {
  incomplete_number: 'Your card number is incomplete.',
  invalid_number: 'Your card number is invalid.',
  incomplete_expiry: "Your card's expiration date is incomplete.",
  invalid_expiry_year_past: "Your card's expiration year is in the past.",
  invalid_expiry_month: "Your card's expiration date is invalid.",
  incomplete_cvc: "Your card's security code is incomplete.",
  incomplete_zip: 'Your postal code is incomplete.',
};

function luhn(digits) {
  var sum = 0;
  for (var i = 0; i < digits.length; i++) {
    var d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0;
}

function brandOf(digits) {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'unknown';
}

function CardElement(group, type, options) {
  this._group = group;
  this._type = type;
  this._options = Object.assign({}, options || {});
  this._handlers = {};
  this._node = null;
  this._root = null;
  this._inputs = null;
}

CardElement.prototype.on = function (event, handler) {
  (this._handlers[event] = this._handlers[event] || []).push(handler);
  return this;
};
CardElement.prototype.once = function (event, handler) {
  var self = this;
  function wrapped(e) { self.off(event, wrapped); handler(e); }
  return this.on(event, wrapped);
};
CardElement.prototype.off = function (event, handler) {
  var list = this._handlers[event] || [];
  this._handlers[event] = handler ? list.filter(function (h) { return h !== handler; }) : [];
  return this;
};
CardElement.prototype._emit = function (event, payload) {
  (this._handlers[event] || []).slice().forEach(function (h) { h(payload); });
};

CardElement.prototype.mount = function (target) {
  var node = typeof target === 'string' ? document.querySelector(target) : target;
  if (!node) throw new Error('The selector you specified (' + target + ') applies to no DOM elements that are currently on the page.');
  if (this._root) this.unmount();
  var self = this;
  var root = document.createElement('div');
  root.className = 'StripeElement StripeElement--empty';
  root.setAttribute('data-stand-in', 'stripe-card');
  root.style.display = 'flex';
  // Wraps on a narrow screen (a phone): the number keeps a line of its own rather than being cut off.
  root.style.flexWrap = 'wrap';
  root.style.gap = '0.5em';
  function input(name, label, placeholder, autocomplete, width) {
    var el = document.createElement('input');
    el.name = name;
    el.type = 'text';
    el.inputMode = 'numeric';
    el.autocomplete = autocomplete;
    el.placeholder = placeholder;
    el.setAttribute('aria-label', label);
    el.style.flex = width;
    el.style.minWidth = '0';
    el.style.border = 'none';
    el.style.outline = 'none';
    el.style.background = 'transparent';
    el.style.font = 'inherit';
    el.style.color = 'inherit';
    el.addEventListener('input', function () {
      var shown = formatted(name, el.value);
      if (shown !== el.value) el.value = shown;
      self._changed();
    });
    el.addEventListener('focus', function () { root.classList.add('StripeElement--focus'); self._emit('focus', { elementType: self._type }); });
    el.addEventListener('blur', function () { root.classList.remove('StripeElement--focus'); self._emit('blur', { elementType: self._type }); });
    el.addEventListener('keydown', function (e) { if (e.key === 'Escape') self._emit('escape', { elementType: self._type }); });
    root.appendChild(el);
    return el;
  }
  this._inputs = {
    number: input('cardnumber', 'Credit or debit card number', '1234 1234 1234 1234', 'cc-number', '4 1 13em'),
    expiry: input('exp-date', 'Credit or debit card expiration date', 'MM / YY', 'cc-exp', '2 1 5em'),
    cvc: input('cvc', 'Credit or debit card CVC/CVV', 'CVC', 'cc-csc', '1 1 3.5em'),
    postal: input('postal', 'ZIP', 'ZIP', 'postal-code', '1.5 1 4em'),
  };
  this._root = root;
  this._node = node;
  node.appendChild(root);
  this._applyOptions();
  setTimeout(function () { self._emit('ready', { elementType: self._type }); }, 0);
};

/**
 * What a field shows as it is typed, as Stripe's card element does: the number in groups of four
 * (American Express 4-6-5), the expiry as MM / YY; the CVC and postal code as typed.
 */
function formatted(name, value) {
  if (name === 'cardnumber') {
    var digits = value.replace(/\D/g, '').slice(0, 19);
    var groups = brandOf(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
    var parts = [];
    var at = 0;
    for (var g = 0; g < groups.length && at < digits.length; g++) {
      parts.push(digits.slice(at, at + groups[g]));
      at += groups[g];
    }
    return parts.join(' ');
  }
  if (name === 'exp-date') {
    var d = value.replace(/\D/g, '');
    // A single first digit above 1 is a month: 4 becomes 04.
    if (/^[2-9]$/.test(d)) d = '0' + d;
    d = d.slice(0, 4);
    return d.length > 2 ? d.slice(0, 2) + ' / ' + d.slice(2) : d;
  }
  return value;
}

CardElement.prototype._applyOptions = function () {
  if (!this._inputs) return;
  var o = this._options;
  this._inputs.postal.style.display = o.hidePostalCode ? 'none' : '';
  var disabled = Boolean(o.disabled);
  var inputs = this._inputs;
  Object.keys(inputs).forEach(function (k) { inputs[k].disabled = disabled; });
  if (o.value && o.value.postalCode !== undefined) inputs.postal.value = o.value.postalCode;
};

CardElement.prototype._read = function () {
  var i = this._inputs;
  var number = i ? i.number.value.replace(/[\s-]/g, '') : '';
  var expiry = i ? i.expiry.value.replace(/\s/g, '') : '';
  var match = /^(\d{1,2})\/?(\d{2}|\d{4})$/.exec(expiry);
  var cvc = i ? i.cvc.value.trim() : '';
  var postal = i ? i.postal.value.trim() : '';
  var year = match ? Number(match[2]) : 0;
  return {
    number: number,
    exp_month: match ? Number(match[1]) : 0,
    exp_year: year && year < 100 ? 2000 + year : year,
    cvc: cvc,
    postal: postal,
    empty: !number && !expiry && !cvc && !postal,
  };
};

CardElement.prototype._error = function (card) {
  var amex = brandOf(card.number) === 'amex';
  if (!card.number || card.number.length < (amex ? 15 : 16)) return 'incomplete_number';
  if (!/^\d{13,19}$/.test(card.number) || !luhn(card.number)) return 'invalid_number';
  if (!card.exp_month) return 'incomplete_expiry';
  if (card.exp_month < 1 || card.exp_month > 12) return 'invalid_expiry_month';
  var now = new Date();
  if (card.exp_year * 12 + card.exp_month - 1 < now.getFullYear() * 12 + now.getMonth()) return 'invalid_expiry_year_past';
  if (card.cvc.length < (amex ? 4 : 3)) return 'incomplete_cvc';
  if (!this._options.hidePostalCode && !card.postal) return 'incomplete_zip';
  return null;
};

CardElement.prototype._validation = function () {
  var card = this._read();
  var code = this._error(card);
  return { card: card, error: code ? { type: 'validation_error', code: code, message: MESSAGES[code] } : undefined };
};

CardElement.prototype._changed = function () {
  var checked = this._validation();
  var card = checked.card;
  // Like Stripe.js: an incomplete field is not an error while typing, only an invalid one.
  var shown = checked.error && !/^incomplete_/.test(checked.error.code) ? checked.error : undefined;
  this._root.classList.toggle('StripeElement--empty', card.empty);
  this._root.classList.toggle('StripeElement--invalid', Boolean(shown));
  this._root.classList.toggle('StripeElement--complete', !checked.error);
  this._emit('change', {
    elementType: this._type,
    empty: card.empty,
    complete: !checked.error,
    error: shown,
    brand: brandOf(card.number),
    value: { postalCode: card.postal },
  });
};

CardElement.prototype.update = function (options) {
  Object.assign(this._options, options || {});
  this._applyOptions();
};
CardElement.prototype.focus = function () { if (this._inputs) this._inputs.number.focus(); };
CardElement.prototype.blur = function () {
  var inputs = this._inputs;
  if (inputs) Object.keys(inputs).forEach(function (k) { inputs[k].blur(); });
};
CardElement.prototype.clear = function () {
  var inputs = this._inputs;
  if (!inputs) return;
  Object.keys(inputs).forEach(function (k) { inputs[k].value = ''; });
  this._changed();
};
CardElement.prototype.unmount = function () {
  if (this._root && this._root.parentNode) this._root.parentNode.removeChild(this._root);
  this._root = null;
  this._inputs = null;
  this._node = null;
};
CardElement.prototype.destroy = function () {
  this.unmount();
  this._handlers = {};
  this._group._forget(this);
};

function Elements(stripe, options) {
  this._stripe = stripe;
  this._options = Object.assign({}, options || {});
  this._elements = [];
}
Elements.prototype.create = function (type, options) {
  if (type !== 'card') {
    throw new Error('The built-in payment provider\'s Stripe.js stand-in supports the "card" element only, not "' + type + '".');
  }
  if (this.getElement('card')) throw new Error('Can only create one Element of type card.');
  var element = new CardElement(this, type, options);
  this._elements.push(element);
  return element;
};
Elements.prototype.getElement = function (typeOrComponent) {
  var type = typeof typeOrComponent === 'string' ? typeOrComponent : typeOrComponent && typeOrComponent.__elementType;
  for (var i = 0; i < this._elements.length; i++) if (this._elements[i]._type === type) return this._elements[i];
  return null;
};
Elements.prototype.update = function (options) { Object.assign(this._options, options || {}); };
Elements.prototype.fetchUpdates = function () { return Promise.resolve({}); };
Elements.prototype.submit = function () { return Promise.resolve({}); };
Elements.prototype._forget = function (element) {
  this._elements = this._elements.filter(function (e) { return e !== element; });
};

// ---- 3-D Secure: Stripe's test-mode "Complete" / "Fail" choice, in a modal ----

function authenticateInModal(id) {
  return new Promise(function (resolve) {
    var overlay = document.createElement('div');
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-modal', 'true');
    overlay.setAttribute('aria-label', '3D Secure authentication');
    overlay.setAttribute('data-stand-in', 'stripe-3ds');
    overlay.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center';
    var box = document.createElement('div');
    box.style.cssText = 'background:#fff;color:#111;padding:24px;border-radius:8px;max-width:360px;font-family:system-ui,sans-serif;text-align:center';
    var title = document.createElement('h2');
    title.textContent = '3D Secure test payment page';
    title.style.fontSize = '18px';
    var text = document.createElement('p');
    text.textContent = "Scrub's built-in payment provider (local mode). Choose what the cardholder does.";
    box.appendChild(title);
    box.appendChild(text);
    function button(label, outcome) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.style.margin = '4px';
      b.addEventListener('click', function () {
        fetch(API + '/authenticate/' + encodeURIComponent(id) + '?outcome=' + outcome, { method: 'POST' }).then(
          function () { document.body.removeChild(overlay); resolve(); },
          function () { document.body.removeChild(overlay); resolve(); }
        );
      });
      box.appendChild(b);
    }
    button('Complete authentication', 'complete');
    button('Fail authentication', 'fail');
    overlay.appendChild(box);
    document.body.appendChild(overlay);
  });
}

// ---- the Stripe object ----

function StripeInstance(key, options) {
  if (typeof key !== 'string' || !/^pk_/.test(key)) {
    throw new Error('Invalid value for Stripe(): apiKey should be a publishable key (pk_...). You specified: ' + key + '.');
  }
  this._key = key;
  this._options = options || {};
  this._wrappers = [];
  this._appInfo = null;
}

StripeInstance.prototype.elements = function (options) { return new Elements(this, options); };
StripeInstance.prototype._registerWrapper = function (wrapper) { this._wrappers.push(wrapper); };
StripeInstance.prototype.registerAppInfo = function (info) { this._appInfo = info; };

function cardParams(element, extra) {
  if (!element || typeof element._validation !== 'function') {
    return { error: { type: 'integration_error', message: 'Pass a mounted card Element created by elements.create("card").' } };
  }
  var checked = element._validation();
  if (checked.error) return { error: checked.error };
  var card = checked.card;
  var billing = Object.assign({}, (extra && extra.billing_details) || {});
  if (card.postal) billing.address = Object.assign({ postal_code: card.postal }, billing.address || {});
  return {
    params: {
      type: 'card',
      card: { number: card.number, exp_month: card.exp_month, exp_year: card.exp_year, cvc: card.cvc },
      billing_details: billing,
      metadata: extra && extra.metadata,
    },
  };
}

StripeInstance.prototype.createPaymentMethod = function (typeOrData, element, data) {
  var input = typeof typeOrData === 'string' ? Object.assign({ type: typeOrData, card: element }, data || {}) : typeOrData || {};
  if (input.type && input.type !== 'card') {
    return Promise.resolve({ error: { type: 'invalid_request_error', message: 'The built-in payment provider takes cards only.' } });
  }
  var built = cardParams(input.card || input.element, input);
  if (built.error) return Promise.resolve({ error: built.error });
  return request(this._key, 'POST', 'payment_methods', built.params).then(function (r) {
    return r.error ? { error: r.error } : { paymentMethod: r.value };
  });
};

StripeInstance.prototype.createToken = function (element, data) {
  var built = cardParams(element, null);
  if (built.error) return Promise.resolve({ error: built.error });
  var card = built.params.card;
  if (data && data.address_zip) card.address_zip = data.address_zip;
  return request(this._key, 'POST', 'tokens', { card: card }).then(function (r) {
    return r.error ? { error: r.error } : { token: r.value };
  });
};

StripeInstance.prototype._paymentMethodParam = function (given) {
  if (!given) return Promise.resolve({});
  if (typeof given === 'string') return Promise.resolve({ id: given });
  var built = cardParams(given.card, given);
  if (built.error) return Promise.resolve({ error: built.error });
  return request(this._key, 'POST', 'payment_methods', built.params).then(function (r) {
    return r.error ? { error: r.error } : { id: r.value.id };
  });
};

StripeInstance.prototype._confirm = function (kind, clientSecret, data, options) {
  var self = this;
  var id = intentId(clientSecret);
  var resource = kind === 'setup' ? 'setup_intents' : 'payment_intents';
  var field = kind === 'setup' ? 'setupIntent' : 'paymentIntent';
  if (!id) return Promise.resolve({ error: { type: 'invalid_request_error', message: 'Invalid value for ' + (kind === 'setup' ? 'confirmCardSetup' : 'confirmCardPayment') + ': clientSecret should be a client secret of the form {id}_secret_{secret}.' } });
  data = data || {};
  return this._paymentMethodParam(data.payment_method).then(function (pm) {
    if (pm.error) return { error: pm.error };
    var params = { client_secret: clientSecret, payment_method: pm.id, return_url: data.return_url, setup_future_usage: data.setup_future_usage };
    return request(self._key, 'POST', resource + '/' + id + '/confirm', params).then(function (r) {
      if (r.error) return { error: r.error };
      var intent = r.value;
      if (intent.status === 'requires_action' && !(options && options.handleActions === false)) {
        return self._authenticate(kind, clientSecret);
      }
      var result = {};
      result[field] = intent;
      return result;
    });
  });
};

StripeInstance.prototype._authenticate = function (kind, clientSecret) {
  var self = this;
  var id = intentId(clientSecret);
  var resource = kind === 'setup' ? 'setup_intents' : 'payment_intents';
  var field = kind === 'setup' ? 'setupIntent' : 'paymentIntent';
  return authenticateInModal(id).then(function () {
    return request(self._key, 'GET', resource + '/' + id, { client_secret: clientSecret });
  }).then(function (r) {
    if (r.error) return { error: r.error };
    var intent = r.value;
    var failure = intent.last_payment_error || intent.last_setup_error;
    if (intent.status === 'requires_payment_method' && failure) {
      var error = Object.assign({}, failure);
      error[kind === 'setup' ? 'setup_intent' : 'payment_intent'] = intent;
      return { error: error };
    }
    var result = {};
    result[field] = intent;
    return result;
  });
};

StripeInstance.prototype.confirmCardPayment = function (clientSecret, data, options) {
  return this._confirm('payment', clientSecret, data, options);
};
StripeInstance.prototype.confirmCardSetup = function (clientSecret, data, options) {
  return this._confirm('setup', clientSecret, data, options);
};
StripeInstance.prototype.handleNextAction = function (input) {
  var clientSecret = input && input.clientSecret;
  return this._authenticate(/^seti_/.test(String(clientSecret)) ? 'setup' : 'payment', clientSecret);
};
StripeInstance.prototype.handleCardAction = function (clientSecret) {
  return this._authenticate('payment', clientSecret);
};
StripeInstance.prototype.handleCardSetup = function (clientSecret, element, data) {
  return this._confirm('setup', clientSecret, Object.assign({ payment_method: { card: element } }, data || {}));
};
StripeInstance.prototype.retrievePaymentIntent = function (clientSecret) {
  return request(this._key, 'GET', 'payment_intents/' + intentId(clientSecret), { client_secret: clientSecret }).then(function (r) {
    return r.error ? { error: r.error } : { paymentIntent: r.value };
  });
};
StripeInstance.prototype.retrieveSetupIntent = function (clientSecret) {
  return request(this._key, 'GET', 'setup_intents/' + intentId(clientSecret), { client_secret: clientSecret }).then(function (r) {
    return r.error ? { error: r.error } : { setupIntent: r.value };
  });
};

function Stripe(key, options) {
  return new StripeInstance(key, options);
}
// The release train @stripe/stripe-js 10.x expects; it warns about any other with a test key.
Stripe.version = 'endive';
Stripe.standIn = 'scrub-local';
window.Stripe = Stripe;
`;
