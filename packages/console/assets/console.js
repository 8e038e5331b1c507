// ../../node_modules/.pnpm/preact@11.2.0/node_modules/preact/dist/preact.mjs
var e, t, n, r, i, a, o, s, c, l, u = Symbol.for("pv"), d = {}, f = [], p = /^m(i|n|o|s|text|space)$/, m = Array.isArray, h = f.slice, g = Object.assign;
function _(e) {
	e && e.parentNode && e.remove();
}
function v(e, t, n) {
	var r, i, a, o = {}, s = arguments.length;
	for (a in t) a == "key" ? r = t[a] : a == "ref" && typeof e != "function" ? i = t[a] : o[a] = t[a];
	return s > 2 && (o.children = s > 3 ? h.call(arguments, 2) : n), y(e, o, r, i, null);
}
function y(n, r, i, a, o) {
	var s = {
		type: n,
		props: r,
		key: i,
		ref: a,
		__k: null,
		__: null,
		__b: 0,
		__e: null,
		__c: null,
		constructor: u,
		__v: o || ++t,
		__i: -1,
		__u: 0
	};
	return !o && e.vnode && e.vnode(s), s;
}
function b(e) {
	return e.children;
}
function x(e, t) {
	this.props = e, this.context = t, this.__g = 0;
}
function S(e, t) {
	if (t == null) return e.__ && S(e.__, e.__i + 1);
	for (var n; t < e.__k.length; t++) if ((n = e.__k[t]) && n.__e) return n.__e;
	return typeof e.type != "function" || e.props.__P ? null : S(e);
}
function C(t) {
	var n, r = t.__v, i = r.__e, a = [], o = [], s = t.__P;
	s && ((n = g({ constructor: u }, r)).__v = r.__v + 1, e.vnode && e.vnode(n), N(s, n, r, t.__n, s.namespaceURI, 32 & r.__u ? [i] : null, a, i || S(r), 32 & r.__u, o), n.__v = r.__v, n.__.__k[n.__i] = n, re(a, n, o), r.__ = r.__e = null, n.__e != i && w(n));
}
function w(e) {
	if ((e = e.__) && e.__c && !e.props.__P) return e.__e = null, e.__k.some(function(t) {
		return t && (e.__e = t.__e);
	}), w(e);
}
function T(t) {
	(8 & t.__g || (t.__g |= 8, n.push(t), i++)) && r == e.debounceRendering || ((r = e.debounceRendering) || queueMicrotask)(E);
}
function E() {
	try {
		for (var e, t = 1; n.length;) n.length > t && n.sort(a), e = n.shift(), t = n.length, 8 & e.__g && C(e);
	} finally {
		(i = n.length) && (r || queueMicrotask)(E);
	}
}
function ee(e, t, n, r, i, a, o, s, c, l, u) {
	var p, m, h, g, _, v, y = r.__k || f, b = t.length;
	for (c = D(n, t, y, c, b), p = 0; p < b; p++) (h = n.__k[p]) != null && (m = ~h.__i && y[h.__i] || d, h.__i = p, v = N(e, h, m, i, a, o, s, c, l, u), g = h.__e, (m.ref != h.ref || 8 & m.__u) && (m.ref && P(m.ref, null, h, m), h.ref && u.push(h.ref, h.__c || g, h)), _ ||= g, 4 & h.__u ? (c = O(h, c, e, !m.__v), m.__e && (m.__e = null)) : typeof h.type == "function" && v !== void 0 ? c = v : g && (c = g.nextSibling), h.__u &= -21);
	return n.__e = _, c;
}
function D(e, t, n, r, i) {
	var a, o, s, c, l, d, f, p, h, g = n.length, _ = g, v = 0, x = 0, C = e.__k = Array(i);
	for (a = 0; a < i; a++) (o = t[a]) != null && typeof o != "boolean" && typeof o != "function" ? (typeof o != "object" || o.constructor === String ? o = C[a] = y(null, o) : m(o) ? o = C[a] = y(b, { children: o }) : o.constructor === u && o.__b ? o = C[a] = y(o.type, o.props, o.key, o.ref, o.__v) : C[a] = o, c = a + v, o.__ = e, o.__b = e.__b + 1, s = null, ~(l = o.__i = k(o, n, c, _)) && (_--, (s = n[l]) && (s.__u |= 2)), s && s.__v ? (o.__u |= 16, l == c - 1 ? v-- : l == c + 1 ? v++ : l != c && (l > c ? v-- : v++, x = 1)) : (~l || (i > g ? v-- : i < g && v++), typeof o.type != "function" && (o.__u |= 4))) : C[a] = null;
	if (x) {
		for (d = [], f = [], a = 0; a < i; a++) if ((o = C[a]) && 16 & o.__u) {
			for (v = 0, p = d.length; v < p;) d[h = v + p >> 1] < o.__i ? v = h + 1 : p = h;
			d[v] = o.__i, f[a] = v + 1;
		}
		for (v = d.length; a--;) f[a] && (f[a] == v ? v-- : C[a].__u |= 4);
	}
	if (_) for (a = 0; a < g; a++) !(s = n[a]) || 2 & s.__u || (s.__e == r && (r = S(s)), ae(s, s));
	return r;
}
function O(e, t, n, r) {
	var i, a, o, s;
	if (typeof e.type == "function") {
		if (e.props.__P) return t;
		if (i = e.__k) for (a = 0; a < i.length; a++) i[a] && (i[a].__ = e, t = O(i[a], t, n, !1));
		return t;
	}
	for (t && !t.parentNode && (t = S(e)) && !t.parentNode && (t = null), o = e.__e, s = t; s && s.nodeType == 8;) s = s.nextSibling;
	for (o != s && (!r && n.moveBefore && o.parentNode ? n.moveBefore(o, t) : n.insertBefore(o, t || null)), t = o; (t &&= t.nextSibling) && t.nodeType == 8 && !t.data.startsWith("$s"););
	return t;
}
function k(e, t, n, r) {
	var i, a = e.key, o = e.type, s = t[n], c = s && !(2 & s.__u);
	if (s === null && a == null || c && a == s.key && o == s.type) return n;
	if (r > +!!c) {
		for (i = n - 1; i >= 0; i--) if ((s = t[i]) && !(2 & s.__u) && a == s.key && o == s.type) return i;
		for (i = n + 1; i < t.length; i++) if ((s = t[i]) && !(2 & s.__u) && a == s.key && o == s.type) return i;
	}
	return -1;
}
function A(e, t, n) {
	n ??= "", t[0] == "-" ? e.setProperty(t, n) : e[t] = n;
}
function j(e, t, n, r, i) {
	var a, o;
	if (t == "style") {
		if (typeof n == "string") e.style.cssText = n;
		else {
			if (typeof r == "string" && (e.style.cssText = r = ""), r) for (t in r) n && t in n || A(e.style, t);
			if (n) for (t in n) r && n[t] == r[t] || A(e.style, t, n[t]);
		}
	} else if (t[0] == "o" && t[1] == "n") typeof n != "function" && (n = null), typeof r != "function" && (r = null), (e.__e ||= {})[t] = n, n && r || (o = l[t] || (l[t] = M(t)), (e.__a ||= {})[t] = c, a = t != (t = t.replace(s, "$1")), (t = t.slice(2))[0] < "a" && (t = t.toLowerCase()), n ? e.addEventListener(t, o, a) : e.removeEventListener(t, o, a));
	else {
		if (i == "http://www.w3.org/2000/svg") t = t.replace(/xlink(H|:h)/, "h").replace(/sName$/, "s");
		else if (t != "width" && t != "height" && t != "href" && t != "list" && t != "form" && t != "tabIndex" && t != "download" && t != "rowSpan" && t != "colSpan" && t != "role" && t != "popover" && t in e) try {
			e[t] = n ?? "";
			return;
		} catch {}
		if (typeof n == "function") return;
		n == null || !1 === n && t[4] != "-" ? e.removeAttribute(t) : e.setAttribute(t, t == "popover" && n == 1 ? "" : n);
	}
}
function M(t) {
	return function(n) {
		var r = this.__e;
		if (r) {
			if (r = r[t], n[o] == null) n[o] = c++;
			else if (n[o] < this.__a[t]) return;
			return r(e.event ? e.event(n) : n);
		}
	};
}
function N(t, n, r, i, a, o, s, c, l, d) {
	var p, h, v, y, C, w, T, E, D, O, k, A, j, M, N, re, P, F, I = n.type;
	if (n.constructor !== u) return null;
	128 & r.__u && (l = 32 & r.__u, p = r.__c.__z) && (n.__u |= l, h = o = [], p.nodeType == 8 ? c = te(p, o) : o.push(p), c = o[0] || c), (p = e.__b) && p(n);
	n: if (typeof I == "function") {
		v = s.length;
		try {
			if (E = n.props, D = (p = I.prototype) && p.render, O = (p = I.contextType) && i[p.__c], k = p ? O ? O.props.value : p.__ : i, (y = r.__c) ? (n.__c = y, 2 & y.__g && (y.__g |= 1)) : (D ? n.__c = y = new I(E, k) : (n.__c = y = new x(E, k), y.constructor = I, y.render = oe), O && O.sub(y), y.state || (y.state = {}), y.__n = i, y.__g |= 8, y.__h = [], y.__k = []), D && (y.__s || (y.__s = y.state), I.getDerivedStateFromProps && (y.__s == y.state && (y.__s = g({}, y.__s)), g(y.__s, I.getDerivedStateFromProps(E, y.__s)))), C = y.props, w = y.state, y.__v = n, r.__c) {
				if (E !== C && D && !I.getDerivedStateFromProps && y.componentWillReceiveProps && y.componentWillReceiveProps(E, k), n.__v == r.__v && !(8 & y.__g) || !(4 & y.__g) && y.shouldComponentUpdate && !1 === y.shouldComponentUpdate(E, y.__s, k)) {
					n.__v != r.__v && (y.props = E, y.state = y.__s, y.__g &= -9), n.__e = r.__e, n.__k = r.__k, n.__k.some(function(e) {
						e && (e.__ = n);
					}), f.push.apply(y.__h, y.__k), y.__k = [], y.__h.length && s.push(y), c = S(r);
					break n;
				}
				y.componentWillUpdate && y.componentWillUpdate(E, y.__s, k), D && y.componentDidUpdate && y.__h.push(function() {
					y.componentDidUpdate(C, w, T);
				});
			} else D && !I.getDerivedStateFromProps && y.componentWillMount && y.componentWillMount(), D && y.componentDidMount && y.__h.push(y.componentDidMount);
			y.context = k, y.props = E, y.__P = t, y.__g &= -5, A = e.__r, j = D ? 25 : 0;
			do
				y.__g &= -9, A && A(n), p = y.render(y.props, y.state = y.__s, y.context);
			while (8 & y.__g && ++j < 25);
			D && (f.push.apply(y.__h, y.__k), y.__k = []), y.state = y.__s, y.getChildContext && (i = g({}, i, y.getChildContext())), D && r.__c && y.getSnapshotBeforeUpdate && (T = y.getSnapshotBeforeUpdate(C, w)), M = p && p.type === b && p.key == null ? p.props.children : p, E.__P && (p = c, a = (t = E.__P).namespaceURI, l = o = null, r.props && r.props.__P != t && (r.__k.some(function(e) {
				e && ae(e, e);
			}), r.__k = null), c = r.__k ? S(r, 0) : null), c = ee(t, m(M) ? M : [M], n, r, i, a, o, s, c, l, d), E.__P && (n.__e = null, c = p), n.__u &= -161, h && h.some(_), y.__h.length && s.push(y), 1 & y.__g && (y.__g &= -4);
		} catch (t) {
			if (s.length = v, n.__v = null, l || o) {
				if (t && t.then) {
					if (n.__u |= 128 | l, o) {
						for (~(P = o.indexOf(c || void 0)) || (P = o.length); (F = o[P - 1]) && F.nodeType == 8;) P--;
						for (; P < o.length; P++) if (F = o[P]) {
							if (o[P] = null, N) {
								if (F == re) break;
							} else {
								if (F.nodeType != 8) break;
								F.data.startsWith("$s") && (re = te(N = F));
							}
						}
					}
					if (!N) {
						for (; c && c.nodeType == 8 && c.nextSibling;) c = c.nextSibling;
						N = c;
					}
					(p = te(N = n.__c.__z || (n.__c.__z = N))) ? (n.__e = N, c = p) : n.__e = c, c &&= c.nextSibling;
				} else o && o.some(_);
			} else n.__e = r.__e;
			n.__k ||= r.__k || [], t && t.then || ne(n), e.__e(t, n, r);
		}
	} else c = n.__e = ie(r.__e, n, r, i, a, o, s, l, d, t);
	return (p = e.diffed) && p(n), c;
}
function te(e, t) {
	if (e && e.nodeType == 8 && e.data.startsWith("$s")) for (var n = 1; e = e.nextSibling;) {
		if (e.nodeType == 8) {
			if (e.data.startsWith("$s")) n++;
			else if (e.data.startsWith("/$s") && !--n) return e;
		}
		t && t.push(e);
	}
}
function ne(e) {
	e && (e.__c && (e.__c.__g |= 4), e.__k && e.__k.some(ne));
}
function re(t, n, r) {
	for (var i = 0; i < r.length;) P(r[i++], r[i++], r[i++]);
	e.__c && e.__c(n, t), t.some(function(n) {
		try {
			t = n.__h, n.__h = [], t.some(function(e) {
				e.call(n);
			});
		} catch (t) {
			e.__e(t, n.__v);
		}
	});
}
function ie(t, n, r, i, a, o, s, c, l, u) {
	var f, g, v, y, b, x, C, w, T = r.props || d, E = n.props, D = n.type;
	if (D == "svg" ? a = "http://www.w3.org/2000/svg" : D == "math" ? a = "http://www.w3.org/1998/Math/MathML" : a ||= "http://www.w3.org/1999/xhtml", o) {
		for (f = 0; f < o.length; f++) if ((b = o[f]) && (D ? b.localName == D : b.nodeType == 3)) {
			t = b, o[f] = null;
			break;
		}
	}
	if (!t) {
		if (w = u.ownerDocument || document, !D) return w.createTextNode(E);
		t = w.createElementNS(a, D, E.is ? E : u), c &&= (e.__m && e.__m(n, o), !1), o = null;
	}
	if (D) {
		if (u = D == "template" && t.content || t, o = D == "textarea" && E.defaultValue != null ? null : o && h.call(u.childNodes), !c && o) for (T = {}, f = 0; f < t.attributes.length; f++) T[(b = t.attributes[f]).name] = b.value;
		for (f in T) b = T[f], f == "dangerouslySetInnerHTML" ? v = b : f == "children" || f in E || f == "value" && "defaultValue" in E || f == "checked" && "defaultChecked" in E || j(t, f, null, b, a);
		for (f in E) b = E[f], f == "children" ? y = b : f == "dangerouslySetInnerHTML" ? g = b : f == "value" ? x = b : f == "checked" ? C = b : c && typeof b != "function" || T[f] === b || j(t, f, b, T[f], a);
		g ? (c || v && (g.__html == v.__html || g.__html == t.innerHTML) || (t.innerHTML = g.__html), n.__k = []) : (v && (t.textContent = ""), (D == "foreignObject" || a == "http://www.w3.org/1998/Math/MathML" && p.test(D)) && (a = "http://www.w3.org/1999/xhtml"), ee(u, m(y) ? y : [y], n, r, i, a, o, s, o ? o[0] : r.__k && S(r, 0), c, l), o && o.some(_)), c && D != "textarea" || (f = "value", D == "progress" && x == null ? t.removeAttribute(f) : x == null || x === t[f] && (D != "progress" || x) || j(t, f, x, T[f], a), f = "checked", C != null && C != t[f] && j(t, f, C, T[f], a));
	} else T === E || c && t.data == E || (t.data = E);
	return t;
}
function P(t, n, r, i) {
	try {
		typeof t == "function" ? n ? n.__x = t(n) || 1 : (i &&= i.__c || i.__e) && (n = i.__x) && (i.__x = null, typeof n == "function" ? n() : t(null)) : t.current = n;
	} catch (t) {
		e.__e(t, r);
	}
}
function ae(t, n, r) {
	var i, a, o, s;
	if (e.unmount && e.unmount(t), !(i = t.ref) || i.current && i.current != t.__e || P(i, null, n, t), i = t.__c) {
		if (i.componentWillUnmount) try {
			i.componentWillUnmount();
		} catch (t) {
			e.__e(t, n);
		}
		i.__P = i.__n = null;
	}
	if (i = t.__k) for (s = 0; s < i.length; s++) i[s] && ae(i[s], n, typeof t.type != "function" || r && !t.props.__P);
	!r && (i = t.__c) && (i = i.__z) && (a = te(i, o = [])) && (i == t.__e && o.some(_), _(a), _(i)), r || _(t.__e), t.__e = t.__c = t.__ = null;
}
function oe(e, t, n) {
	return this.constructor(e, n);
}
function F(t, n) {
	var r, i, a, o;
	e.__ && e.__(t, n), n.nodeType == 9 && (n = n.documentElement), i = (r = t && 32 & t.__u) ? null : n.__k, n.__k = y(b, { children: [t] }), a = [], o = [], N(n, n.__k, i || d, d, n.namespaceURI, i ? null : n.firstChild ? h.call(n.childNodes) : null, a, i ? i.__e : n.firstChild, r, o), re(a, n.__k, o), n.__k.props.children = null;
}
e = { __e: function(e, t, n, r) {
	for (var a, o, s; t = t.__;) if ((a = t.__c) && !(1 & a.__g)) {
		a.__g |= 4;
		try {
			if ((s = (o = a.constructor) && o.getDerivedStateFromError) && a.setState(o.getDerivedStateFromError(e)), a.componentDidCatch && (a.componentDidCatch(e, r || {}), s = 1), s && 8 & a.__g) return void (a.__g |= 2);
		} catch (t) {
			e = t;
		}
	}
	throw i = 0, e;
} }, t = 0, x.prototype.setState = function(e, t) {
	var n = this.__s;
	n && n != this.state || (n = this.__s = g({}, this.state)), typeof e == "function" && (e = e(g({}, n), this.props)), e && (g(n, e), this.__v && (t && this.__k.push(t), T(this)));
}, x.prototype.forceUpdate = function(e) {
	this.__v && (this.__g |= 4, e && this.__h.push(e), T(this));
}, x.prototype.render = b, n = [], i = 0, a = function(e, t) {
	return e.__v.__b - t.__v.__b;
}, o = Symbol(), s = /(PointerCapture)$|Capture$/i, c = 0, l = {};
// ../../node_modules/.pnpm/preact@11.2.0/node_modules/preact/hooks/dist/hooks.mjs
var I, L, se, ce, le = Object.is, ue = 0, de = [], fe = [], R = e, pe = R.__b, me = R.__r, he = R.diffed, ge = R.__c, _e = R.unmount, ve = R.__;
function ye(e, t) {
	R.__h && R.__h(L, e, ue || t), ue = 0;
	var n = L.__H || (L.__H = {
		__: [],
		__h: []
	});
	return e >= n.__.length && n.__.push({}), n.__[e];
}
function z(e) {
	return ue = 1, be(Ae, e);
}
function be(e, t, n) {
	var r = ye(I++, 2);
	if (r.t = e, !r.__c && (r.__ = [n ? n(t) : Ae(void 0, t), function(e) {
		var t = (r.__N || r.__)[0], n = r.t(t, e);
		le(t, n) || (r.__N = [n, r.__[1]], r.__c.setState({}));
	}], r.__c = L, !L.__f)) {
		L.__f = !0;
		var i = L.shouldComponentUpdate;
		L.shouldComponentUpdate = function(e, t, n) {
			var r = this.__H;
			if (!r) return !0;
			var a = !1, o = this.props != e;
			if (r.__.some(function(e) {
				e.__N && (a = !0, le(e.__[0], e.__N[0]) || (o = !0));
			}), i) {
				var s = i.call(this, e, t, n);
				return a ? s || o : s;
			}
			return !a || o;
		};
	}
	return r.__;
}
function xe(e, t) {
	var n = ye(I++, 3);
	!R.__s && ke(n.__H, t) && (n.__P = !0, n.__ = e, n.u = t, L.__H.__h.push(n));
}
function Se(e, t) {
	var n = ye(I++, 7);
	return ke(n.__H, t) && (n.__ = e(), n.__H = t), n.__;
}
function Ce(e, t) {
	return ue = 8, Se(function() {
		return e;
	}, t);
}
function we() {
	var e;
	do {
		for (; e = fe.shift();) try {
			B(e);
		} catch (t) {
			R.__e(t, { __: (e = e.__P) && e.__v });
		}
		for (; e = de.shift();) {
			var t = e.__H;
			if (e.__P && t) try {
				t.__h.some(B), t.__h.some(Oe), t.__h = [];
			} catch (n) {
				t.__h = [], R.__e(n, e.__v);
			}
		}
	} while (fe.length);
}
R.__b = function(e) {
	L = null, pe && pe(e);
}, R.__ = function(e, t) {
	e && t.__k && t.__k.__m && (e.__m = t.__k.__m), ve && ve(e, t);
}, R.__r = function(e) {
	me && me(e), I = 0;
	var t = (L = e.__c).__H;
	t && (se == L ? L.__h = [] : (t.__h.some(B), t.__h.some(Oe), I = 0), t.__h = [], t.__.some(function(e) {
		e.__N && (e.__ = e.__N), e.u = e.__N = void 0;
	})), se = L;
}, R.diffed = function(e) {
	he && he(e);
	var t = e.__c;
	t && t.__H && (t.__H.__h.length && De(de.push(t)), t.__H.__.some(function(e) {
		e.u && (e.__H = e.u);
	})), se = L = null;
}, R.__c = function(e, t) {
	t.some(function(e) {
		try {
			e.__h.some(B), e.__h = e.__h.filter(function(e) {
				return !e.__ || Oe(e);
			});
		} catch (t) {
			e.__h = [function() {
				throw t;
			}];
		}
	}), ge && ge(e, t);
}, R.unmount = function(e) {
	_e && _e(e);
	var t, n, r = e.__c;
	r && r.__H && (r.__H.__.some(function(r) {
		try {
			if (r.__P && r.__c) {
				if (n === void 0) {
					for (n = e.__; n && (!n.__c || !n.__c.__P);) n = n.__;
					n &&= n.__c;
				}
				r.__P = n, De(fe.push(r));
			} else B(r);
		} catch (e) {
			t = e;
		}
	}), r.__H = void 0, t && R.__e(t, r.__v));
};
var Te = typeof requestAnimationFrame == "function";
function Ee(e) {
	var t, n = function() {
		clearTimeout(r), Te && cancelAnimationFrame(t), setTimeout(e);
	}, r = setTimeout(n, 35);
	Te && (t = requestAnimationFrame(n));
}
function De(e) {
	e != 1 && ce == R.requestAnimationFrame || ((ce = R.requestAnimationFrame) || Ee)(we);
}
function B(e) {
	var t = L, n = e.__c;
	typeof n == "function" && (e.__c = void 0, n()), L = t;
}
function Oe(e) {
	var t = L;
	e.__c = e.__(), L = t;
}
function ke(e, t) {
	return !e || e.length != t.length || t.some(function(t, n) {
		return !le(t, e[n]);
	});
}
function Ae(e, t) {
	return typeof t == "function" ? t(e) : t;
}
// web/format.ts
function V(e) {
	return e === void 0 ? "–" : e >= 1e3 ? `${(e / 1e3).toFixed(2)} s` : e >= 10 ? `${e.toFixed(0)} ms` : `${e.toFixed(2)} ms`;
}
function je(e) {
	let t = new Date(e), n = (e, t = 2) => String(e).padStart(t, "0");
	return `${n(t.getHours())}:${n(t.getMinutes())}:${n(t.getSeconds())}.${n(t.getMilliseconds(), 3)}`;
}
// ../../node_modules/.pnpm/htm@3.1.1/node_modules/htm/dist/htm.module.js
var Me = function(e, t, n, r) {
	var i;
	t[0] = 0;
	for (var a = 1; a < t.length; a++) {
		var o = t[a++], s = t[a] ? (t[0] |= o ? 1 : 2, n[t[a++]]) : t[++a];
		o === 3 ? r[0] = s : o === 4 ? r[1] = Object.assign(r[1] || {}, s) : o === 5 ? (r[1] = r[1] || {})[t[++a]] = s : o === 6 ? r[1][t[++a]] += s + "" : o ? (i = e.apply(s, Me(e, s, n, ["", null])), r.push(i), s[0] ? t[0] |= 2 : (t[a - 2] = 0, t[a] = i)) : r.push(s);
	}
	return r;
}, Ne = /* @__PURE__ */ new Map();
function Pe(e) {
	var t = Ne.get(this);
	return t || (t = /* @__PURE__ */ new Map(), Ne.set(this, t)), (t = Me(this, t.get(e) || (t.set(e, t = function(e) {
		for (var t, n, r = 1, i = "", a = "", o = [0], s = function(e) {
			r === 1 && (e || (i = i.replace(/^\s*\n\s*|\s*\n\s*$/g, ""))) ? o.push(0, e, i) : r === 3 && (e || i) ? (o.push(3, e, i), r = 2) : r === 2 && i === "..." && e ? o.push(4, e, 0) : r === 2 && i && !e ? o.push(5, 0, !0, i) : r >= 5 && ((i || !e && r === 5) && (o.push(r, 0, i, n), r = 6), e && (o.push(r, e, 0, n), r = 6)), i = "";
		}, c = 0; c < e.length; c++) {
			c && (r === 1 && s(), s(c));
			for (var l = 0; l < e[c].length; l++) t = e[c][l], r === 1 ? t === "<" ? (s(), o = [o], r = 3) : i += t : r === 4 ? i === "--" && t === ">" ? (r = 1, i = "") : i = t + i[0] : a ? t === a ? a = "" : i += t : t === "\"" || t === "'" ? a = t : t === ">" ? (s(), r = 1) : r && (t === "=" ? (r = 5, n = i, i = "") : t === "/" && (r < 5 || e[c][l + 1] === ">") ? (s(), r === 3 && (o = o[0]), r = o, (o = o[0]).push(2, 0, r), r = 0) : t === " " || t === "	" || t === "\n" || t === "\r" ? (s(), r = 2) : i += t), r === 3 && i === "!--" && (r = 4, o = o[0]);
		}
		return s(), o;
	}(e)), t), arguments, [])).length > 1 ? t : t[0];
}
// web/html.ts
var H = Pe.bind(v);
// web/agent-runs-view.ts
function Fe(e) {
	return H`<ul class="list" aria-label="agent runs">
    ${e.runs.length === 0 ? H`<li class="empty">no agent runs yet</li>` : null}
    ${e.runs.map((t) => H`<li key=${t.id}>
        <button class=${`row status-${t.status}${e.selected === t.id ? " selected" : ""}`}
          aria-pressed=${e.selected === t.id} onClick=${() => e.onOpen(t.id)}>
          <span class="time">${je(t.startedAt)}</span>
          <span class="route">${t.routeId ?? "?"}</span>
          <span class="status">${t.status}</span>
          <span class="duration">${V(t.durationMs)}</span>
          <span class="steps">${t.modelCalls} turns · ${t.toolCalls} tool calls</span>
        </button>
      </li>`)}
  </ul>`;
}
function Ie(e) {
	if (e.kind === "model") {
		let t = e.inputTokens === void 0 ? "" : ` · ${e.inputTokens} in / ${e.outputTokens ?? 0} out tokens`;
		return `model turn ${e.iteration}: ${e.name}${t}${e.stopReason ? ` · ${e.stopReason}` : ""}`;
	}
	return `tool ${e.name}${e.callId ? ` (${e.callId})` : ""}`;
}
function Le(e) {
	let { run: t } = e, n = Math.max(t.durationMs ?? 0, ...t.calls.map((e) => e.startMs + (e.durationMs ?? 0)), .001);
	return H`<section class="waterfall" aria-label=${`agent run ${t.id}`}>
    <h3>agent run <code>${t.id}</code></h3>
    <p>route <strong>${t.routeId ?? "?"}</strong> · ${t.model ?? ""} · <span class=${`status-${t.status}`}>${t.status}</span> · ${V(t.durationMs)} · ${t.inputTokens} in / ${t.outputTokens} out tokens · ${t.toolCalls} tool calls${t.error ? H` · <span class="error">${t.error}</span>` : null}</p>
    <ol class="calls" aria-label="model turns and tool calls">
      ${t.calls.map((e, t) => {
		let r = e.startMs / n * 100, i = Math.max((e.durationMs ?? 0) / n * 100, .5);
		return H`<li key=${t} class=${`call ${e.kind} status-${e.status}`}>
          <div class="call-head">
            <span class="call-title">${Ie(e)}</span>
            <span class="call-duration">${V(e.durationMs)}</span>
          </div>
          <div class="bar-track" aria-hidden="true"><div class="bar" style=${{
			left: `${r}%`,
			width: `${i}%`
		}}></div></div>
          ${e.arguments === void 0 ? null : H`<details class="arguments"><summary>arguments</summary><pre>${e.arguments}</pre></details>`}
          ${e.output === void 0 ? null : H`<details class="result"><summary>result</summary><pre>${e.output}</pre></details>`}
          ${e.error === void 0 ? null : H`<p class="error">${e.error}</p>`}
        </li>`;
	})}
    </ol>
    ${t.droppedCalls > 0 ? H`<p class="muted">${t.droppedCalls} more calls not kept</p>` : null}
  </section>`;
}
// web/api.ts
var U = new URLSearchParams(location.search).get("token") ?? void 0;
function Re() {
	return U === void 0 ? {} : { authorization: `Bearer ${U}` };
}
async function ze(e) {
	let t = await e.json();
	if (!e.ok) throw Error(t.error ?? `HTTP ${e.status}`);
	return t;
}
async function W(e) {
	return ze(await fetch(e, { headers: Re() }));
}
async function Be(e) {
	return ze(await fetch(e, {
		method: "POST",
		headers: Re()
	}));
}
function Ve() {
	let e = U === void 0 ? "" : `?token=${encodeURIComponent(U)}`;
	return new EventSource(`/api/events${e}`);
}
// web/exchanges-view.ts
function He(e) {
	return H`<div class="exchanges">
    <label class="search">search exchanges
      <input type="search" maxlength="200" value=${e.query} placeholder="id, route, status, body text…"
        onInput=${(t) => e.onQuery(t.target.value)} />
    </label>
    <ul class="list" aria-label="recent exchanges">
      ${e.exchanges.length === 0 ? H`<li class="empty">no exchanges yet</li>` : null}
      ${e.exchanges.map((t) => H`<li key=${t.id}>
          <button class=${`row status-${t.status}${e.selected === t.id ? " selected" : ""}`}
            aria-pressed=${e.selected === t.id} onClick=${() => e.onOpen(t.id)}>
            <span class="time">${je(t.startedAt)}</span>
            <span class="route">${t.routeId}</span>
            <span class="status">${t.status}</span>
            <span class="duration">${V(t.durationMs)}</span>
            <span class="steps">${t.steps} steps</span>
          </button>
        </li>`)}
    </ul>
  </div>`;
}
// ../../node_modules/.pnpm/@dagrejs+dagre@3.1.3/node_modules/@dagrejs/dagre/dist/dagre.esm.js
var Ue = Object.defineProperty, We = (e, t, n) => t in e ? Ue(e, t, {
	enumerable: !0,
	configurable: !0,
	writable: !0,
	value: n
}) : e[t] = n, Ge = (e, t) => {
	for (var n in t) Ue(e, n, {
		get: t[n],
		enumerable: !0
	});
}, Ke = (e, t, n) => We(e, typeof t == "symbol" ? t : t + "", n), qe = {};
Ge(qe, {
	Graph: () => K,
	alg: () => at
});
var Je = Object.defineProperty, Ye = (e, t) => {
	for (var n in t) Je(e, n, {
		get: t[n],
		enumerable: !0
	});
}, Xe = class {
	constructor(e) {
		this._isDirected = !0, this._isMultigraph = !1, this._isCompound = !1, this._nodes = {}, this._in = {}, this._preds = {}, this._out = {}, this._sucs = {}, this._edgeObjs = {}, this._edgeLabels = {}, this._nodeCount = 0, this._edgeCount = 0, this._defaultNodeLabelFn = () => {}, this._defaultEdgeLabelFn = () => {}, e && (this._isDirected = "directed" in e ? e.directed : !0, this._isMultigraph = "multigraph" in e && e.multigraph, this._isCompound = "compound" in e && e.compound), this._isCompound && (this._parent = {}, this._children = {}, this._children["\0"] = {});
	}
	isDirected() {
		return this._isDirected;
	}
	isMultigraph() {
		return this._isMultigraph;
	}
	isCompound() {
		return this._isCompound;
	}
	setGraph(e) {
		return this._label = e, this;
	}
	graph() {
		return this._label;
	}
	setDefaultNodeLabel(e) {
		return this._defaultNodeLabelFn = typeof e == "function" ? e : () => e, this;
	}
	nodeCount() {
		return this._nodeCount;
	}
	nodes() {
		return Object.keys(this._nodes);
	}
	sources() {
		return this.nodes().filter((e) => Object.keys(this._in[e]).length === 0);
	}
	sinks() {
		return this.nodes().filter((e) => Object.keys(this._out[e]).length === 0);
	}
	setNodes(e, t) {
		return e.forEach((e) => {
			t === void 0 ? this.setNode(e) : this.setNode(e, t);
		}), this;
	}
	setNode(e, t) {
		return e in this._nodes ? (arguments.length > 1 && (this._nodes[e] = t), this) : (this._nodes[e] = arguments.length > 1 ? t : this._defaultNodeLabelFn(e), this._isCompound && (this._parent[e] = "\0", this._children[e] = {}, this._children["\0"][e] = !0), this._in[e] = {}, this._preds[e] = {}, this._out[e] = {}, this._sucs[e] = {}, ++this._nodeCount, this);
	}
	node(e) {
		return this._nodes[e];
	}
	hasNode(e) {
		return e in this._nodes;
	}
	removeNode(e) {
		if (e in this._nodes) {
			let t = (e) => this.removeEdge(this._edgeObjs[e]);
			delete this._nodes[e], this._isCompound && (this._removeFromParentsChildList(e), delete this._parent[e], this.children(e).forEach((e) => {
				this.setParent(e);
			}), delete this._children[e]), Object.keys(this._in[e]).forEach(t), delete this._in[e], delete this._preds[e], Object.keys(this._out[e]).forEach(t), delete this._out[e], delete this._sucs[e], --this._nodeCount;
		}
		return this;
	}
	setParent(e, t) {
		if (!this._isCompound) throw Error("Cannot set parent in a non-compound graph");
		if (t === void 0) t = "\0";
		else {
			t += "";
			for (let n = t; n !== void 0; n = this.parent(n)) if (n === e) throw Error("Setting " + t + " as parent of " + e + " would create a cycle");
			this.setNode(t);
		}
		return this.setNode(e), this._removeFromParentsChildList(e), this._parent[e] = t, this._children[t][e] = !0, this;
	}
	parent(e) {
		if (this._isCompound) {
			let t = this._parent[e];
			if (t !== "\0") return t;
		}
	}
	children(e = "\0") {
		if (this._isCompound) {
			let t = this._children[e];
			if (t) return Object.keys(t);
		} else {
			if (e === "\0") return this.nodes();
			if (this.hasNode(e)) return [];
		}
		return [];
	}
	predecessors(e) {
		let t = this._preds[e];
		if (t) return Object.keys(t);
	}
	successors(e) {
		let t = this._sucs[e];
		if (t) return Object.keys(t);
	}
	neighbors(e) {
		let t = this.predecessors(e);
		if (t) {
			let n = new Set(t), r = this.successors(e);
			if (r) for (let e of r) n.add(e);
			return Array.from(n.values());
		}
	}
	isLeaf(e) {
		let t;
		return t = this.isDirected() ? this.successors(e) : this.neighbors(e), (t?.length ?? 0) === 0;
	}
	filterNodes(e) {
		let t = new this.constructor({
			directed: this._isDirected,
			multigraph: this._isMultigraph,
			compound: this._isCompound
		});
		t.setGraph(this.graph()), Object.entries(this._nodes).forEach(([n, r]) => {
			e(n) && t.setNode(n, r);
		}), Object.values(this._edgeObjs).forEach((e) => {
			t.hasNode(e.v) && t.hasNode(e.w) && t.setEdge(e, this.edge(e));
		});
		let n = {}, r = (e) => {
			let i = this.parent(e);
			return !i || t.hasNode(i) ? (n[e] = i, i) : i in n ? n[i] : r(i);
		};
		return this._isCompound && t.nodes().forEach((e) => t.setParent(e, r(e))), t;
	}
	setDefaultEdgeLabel(e) {
		return this._defaultEdgeLabelFn = typeof e == "function" ? e : () => e, this;
	}
	edgeCount() {
		return this._edgeCount;
	}
	edges() {
		return Object.values(this._edgeObjs);
	}
	setPath(e, t) {
		return e.reduce((e, n) => (t === void 0 ? this.setEdge(e, n) : this.setEdge(e, n, t), n)), this;
	}
	setEdge(e, t, n, r) {
		let i, a, o, s, c = !1;
		typeof e == "object" && e && "v" in e ? (i = e.v, a = e.w, o = e.name, arguments.length === 2 && (s = t, c = !0)) : (i = e, a = t, o = r, arguments.length > 2 && (s = n, c = !0)), i = "" + i, a = "" + a, o !== void 0 && (o = "" + o);
		let l = G(this._isDirected, i, a, o);
		if (l in this._edgeLabels) return c && (this._edgeLabels[l] = s), this;
		if (o !== void 0 && !this._isMultigraph) throw Error("Cannot set a named edge when isMultigraph = false");
		this.setNode(i), this.setNode(a), this._edgeLabels[l] = c ? s : this._defaultEdgeLabelFn(i, a, o);
		let u = $e(this._isDirected, i, a, o);
		return i = u.v, a = u.w, Object.freeze(u), this._edgeObjs[l] = u, Ze(this._preds[a], i), Ze(this._sucs[i], a), this._in[a][l] = u, this._out[i][l] = u, this._edgeCount++, this;
	}
	edge(e, t, n) {
		let r = arguments.length === 1 ? et(this._isDirected, e) : G(this._isDirected, e, t, n);
		return this._edgeLabels[r];
	}
	edgeAsObj(e, t, n) {
		let r = arguments.length === 1 ? this.edge(e) : this.edge(e, t, n);
		return typeof r != "object" || !r ? { label: r } : r;
	}
	hasEdge(e, t, n) {
		return (arguments.length === 1 ? et(this._isDirected, e) : G(this._isDirected, e, t, n)) in this._edgeLabels;
	}
	removeEdge(e, t, n) {
		let r = arguments.length === 1 ? et(this._isDirected, e) : G(this._isDirected, e, t, n), i = this._edgeObjs[r];
		if (i) {
			let e = i.v, t = i.w;
			delete this._edgeLabels[r], delete this._edgeObjs[r], Qe(this._preds[t], e), Qe(this._sucs[e], t), delete this._in[t][r], delete this._out[e][r], this._edgeCount--;
		}
		return this;
	}
	inEdges(e, t) {
		return this.isDirected() ? this.filterEdges(this._in[e], e, t) : this.nodeEdges(e, t);
	}
	outEdges(e, t) {
		return this.isDirected() ? this.filterEdges(this._out[e], e, t) : this.nodeEdges(e, t);
	}
	nodeEdges(e, t) {
		if (e in this._nodes) return this.filterEdges({
			...this._in[e],
			...this._out[e]
		}, e, t);
	}
	_removeFromParentsChildList(e) {
		delete this._children[this._parent[e]][e];
	}
	filterEdges(e, t, n) {
		if (!e) return;
		let r = Object.values(e);
		return n ? r.filter((e) => e.v === t && e.w === n || e.v === n && e.w === t) : r;
	}
};
function Ze(e, t) {
	e[t] ? e[t]++ : e[t] = 1;
}
function Qe(e, t) {
	e[t] !== void 0 && !--e[t] && delete e[t];
}
function G(e, t, n, r) {
	let i = "" + t, a = "" + n;
	if (!e && i > a) {
		let e = i;
		i = a, a = e;
	}
	return i + "" + a + "" + (r === void 0 ? "\0" : r);
}
function $e(e, t, n, r) {
	let i = "" + t, a = "" + n;
	if (!e && i > a) {
		let e = i;
		i = a, a = e;
	}
	let o = {
		v: i,
		w: a
	};
	return r && (o.name = r), o;
}
function et(e, t) {
	return G(e, t.v, t.w, t.name);
}
Ye({}, {
	read: () => it,
	write: () => tt
});
function tt(e) {
	let t = {
		options: {
			directed: e.isDirected(),
			multigraph: e.isMultigraph(),
			compound: e.isCompound()
		},
		nodes: nt(e),
		edges: rt(e)
	}, n = e.graph();
	return n !== void 0 && (t.value = structuredClone(n)), t;
}
function nt(e) {
	return e.nodes().map((t) => {
		let n = e.node(t), r = e.parent(t), i = { v: t };
		return n !== void 0 && (i.value = n), r !== void 0 && (i.parent = r), i;
	});
}
function rt(e) {
	return e.edges().map((t) => {
		let n = e.edge(t), r = {
			v: t.v,
			w: t.w
		};
		return t.name !== void 0 && (r.name = t.name), n !== void 0 && (r.value = n), r;
	});
}
function it(e) {
	let t = new Xe(e.options);
	return e.value !== void 0 && t.setGraph(e.value), e.nodes.forEach((e) => {
		t.setNode(e.v, e.value), e.parent && t.setParent(e.v, e.parent);
	}), e.edges.forEach((e) => {
		t.setEdge({
			v: e.v,
			w: e.w,
			name: e.name
		}, e.value);
	}), t;
}
var at = {};
Ye(at, {
	CycleException: () => bt,
	bellmanFord: () => st,
	components: () => lt,
	dijkstra: () => ft,
	dijkstraAll: () => mt,
	findCycles: () => gt,
	floydWarshall: () => vt,
	isAcyclic: () => St,
	postorder: () => Et,
	preorder: () => Dt,
	prim: () => Ot,
	shortestPaths: () => kt,
	tarjan: () => ht,
	topsort: () => xt
});
var ot = () => 1;
function st(e, t, n, r) {
	return ct(e, String(t), n || ot, r || function(t) {
		return e.outEdges(t) ?? [];
	});
}
function ct(e, t, n, r) {
	let i = {}, a, o = 0, s = e.nodes(), c = function(e) {
		let t = i[e.v], r = i[e.w];
		if (!t || !r) return;
		let o = n(e);
		t.distance + o < r.distance && (i[e.w] = {
			distance: t.distance + o,
			predecessor: e.v
		}, a = !0);
	}, l = function() {
		s.forEach(function(e) {
			r(e).forEach(function(t) {
				let n = t.v === e ? t.v : t.w, r = n === t.v ? t.w : t.v;
				c({
					v: n,
					w: r
				});
			});
		});
	};
	s.forEach(function(e) {
		i[e] = {
			distance: e === t ? 0 : Infinity,
			predecessor: ""
		};
	});
	let u = s.length;
	for (let e = 1; e < u && (a = !1, o++, l(), a); e++);
	if (o === u - 1 && (a = !1, l(), a)) throw Error("The graph contains a negative weight cycle");
	return i;
}
function lt(e) {
	let t = {}, n = [], r;
	function i(n) {
		var a, o;
		n in t || (t[n] = !0, r.push(n), (a = e.successors(n)) == null || a.forEach(i), (o = e.predecessors(n)) == null || o.forEach(i));
	}
	return e.nodes().forEach(function(e) {
		r = [], i(e), r.length && n.push(r);
	}), n;
}
var ut = class {
	constructor() {
		this._arr = [], this._keyIndices = {};
	}
	size() {
		return this._arr.length;
	}
	keys() {
		return this._arr.map((e) => e.key);
	}
	has(e) {
		return e in this._keyIndices;
	}
	priority(e) {
		let t = this._keyIndices[e];
		if (t !== void 0) return this._arr[t].priority;
	}
	min() {
		if (this.size() === 0) throw Error("Queue underflow");
		return this._arr[0].key;
	}
	add(e, t) {
		let n = this._keyIndices, r = String(e);
		if (!(r in n)) {
			let e = this._arr, i = e.length;
			return n[r] = i, e.push({
				key: r,
				priority: t
			}), this._decrease(i), !0;
		}
		return !1;
	}
	removeMin() {
		if (this.size() === 0) throw Error("Queue underflow");
		this._swap(0, this._arr.length - 1);
		let e = this._arr.pop();
		return delete this._keyIndices[e.key], this._heapify(0), e.key;
	}
	decrease(e, t) {
		let n = this._keyIndices[e];
		if (n === void 0) throw Error(`Key not found: ${e}`);
		let r = this._arr[n].priority;
		if (t > r) throw Error(`New priority is greater than current priority. Key: ${e} Old: ${r} New: ${t}`);
		this._arr[n].priority = t, this._decrease(n);
	}
	_heapify(e) {
		let t = this._arr, n = 2 * e, r = n + 1, i = e;
		n < t.length && (i = t[n].priority < t[i].priority ? n : i, r < t.length && (i = t[r].priority < t[i].priority ? r : i), i !== e && (this._swap(e, i), this._heapify(i)));
	}
	_decrease(e) {
		let t = this._arr, n = t[e].priority, r;
		for (; e !== 0 && (r = e >> 1, !(t[r].priority < n));) this._swap(e, r), e = r;
	}
	_swap(e, t) {
		let n = this._arr, r = this._keyIndices, i = n[e], a = n[t];
		n[e] = a, n[t] = i, r[a.key] = e, r[i.key] = t;
	}
}, dt = () => 1;
function ft(e, t, n, r) {
	return pt(e, String(t), n || dt, r || function(t) {
		return e.outEdges(t) ?? [];
	});
}
function pt(e, t, n, r) {
	let i = {}, a = new ut(), o, s, c = function(e) {
		let t = e.v === o ? e.w : e.v, r = i[t];
		if (!r) return;
		let c = n(e), l = s.distance + c;
		if (c < 0) throw Error("dijkstra does not allow negative edge weights. Bad edge: " + e + " Weight: " + c);
		l < r.distance && (r.distance = l, r.predecessor = o, a.decrease(t, l));
	};
	for (e.nodes().forEach(function(e) {
		let n = e === t ? 0 : Infinity;
		i[e] = {
			distance: n,
			predecessor: ""
		}, a.add(e, n);
	}); a.size() > 0;) {
		o = a.removeMin();
		let e = i[o];
		if (!e || e.distance === Infinity) break;
		s = e, r(o).forEach(c);
	}
	return i;
}
function mt(e, t, n) {
	return e.nodes().reduce(function(r, i) {
		return r[i] = ft(e, i, t, n), r;
	}, {});
}
function ht(e) {
	let t = 0, n = [], r = {}, i = [];
	function a(o) {
		var s;
		let c = r[o] = {
			onStack: !0,
			lowlink: t,
			index: t++
		};
		if (n.push(o), (s = e.successors(o)) == null || s.forEach(function(e) {
			if (e in r) {
				let t = r[e];
				t != null && t.onStack && (c.lowlink = Math.min(c.lowlink, t.index));
			} else {
				a(e);
				let t = r[e];
				t && (c.lowlink = Math.min(c.lowlink, t.lowlink));
			}
		}), c.lowlink === c.index) {
			let e = [], t;
			do {
				t = n.pop();
				let i = r[t];
				i && (i.onStack = !1), e.push(t);
			} while (o !== t);
			i.push(e);
		}
	}
	return e.nodes().forEach(function(e) {
		e in r || a(e);
	}), i;
}
function gt(e) {
	return ht(e).filter(function(t) {
		let n = t[0];
		return n ? t.length > 1 || t.length === 1 && (e.outEdges(n, n) ?? []).length > 0 : !1;
	});
}
var _t = () => 1;
function vt(e, t, n) {
	return yt(e, t || _t, n || function(t) {
		return e.outEdges(t) ?? [];
	});
}
function yt(e, t, n) {
	let r = {}, i = e.nodes();
	return i.forEach(function(e) {
		let a = {};
		r[e] = a, a[e] = {
			distance: 0,
			predecessor: ""
		}, i.forEach(function(t) {
			e !== t && (a[t] = {
				distance: Infinity,
				predecessor: ""
			});
		}), n(e).forEach(function(n) {
			let r = n.v === e ? n.w : n.v, i = t(n);
			a[r] = {
				distance: i,
				predecessor: e
			};
		});
	}), i.forEach(function(e) {
		let t = r[e];
		t && i.forEach(function(n) {
			let a = r[n];
			a && i.forEach(function(n) {
				let r = a[e], i = t[n], o = a[n];
				if (r && i && o) {
					let e = r.distance + i.distance;
					e < o.distance && (o.distance = e, o.predecessor = i.predecessor);
				}
			});
		});
	}), r;
}
var bt = class extends Error {
	constructor(e) {
		super(e), this.name = "CycleException";
	}
};
function xt(e) {
	let t = {}, n = {}, r = [];
	function i(a) {
		var o;
		if (a in n) throw new bt();
		a in t || (n[a] = !0, t[a] = !0, (o = e.predecessors(a)) == null || o.forEach(i), delete n[a], r.push(a));
	}
	if (e.sinks().forEach(i), Object.keys(t).length !== e.nodeCount()) throw new bt();
	return r;
}
function St(e) {
	try {
		xt(e);
	} catch (e) {
		if (e instanceof bt) return !1;
		throw e;
	}
	return !0;
}
function Ct(e, t, n, r, i) {
	Array.isArray(t) || (t = [t]);
	let a = ((t) => (e.isDirected() ? e.successors(t) : e.neighbors(t)) ?? []), o = {};
	return t.forEach(function(t) {
		if (!e.hasNode(t)) throw Error("Graph does not have node: " + t);
		i = wt(e, t, n === "post", o, a, r, i);
	}), i;
}
function wt(e, t, n, r, i, a, o) {
	return t in r || (r[t] = !0, n || (o = a(o, t)), i(t).forEach(function(t) {
		o = wt(e, t, n, r, i, a, o);
	}), n && (o = a(o, t))), o;
}
function Tt(e, t, n) {
	return Ct(e, t, n, function(e, t) {
		return e.push(t), e;
	}, []);
}
function Et(e, t) {
	return Tt(e, t, "post");
}
function Dt(e, t) {
	return Tt(e, t, "pre");
}
function Ot(e, t) {
	var n;
	let r = new Xe(), i = {}, a = new ut(), o;
	function s(e) {
		let n = e.v === o ? e.w : e.v, r = a.priority(n);
		if (r !== void 0) {
			let s = t(e);
			s < r && (i[n] = o, a.decrease(n, s));
		}
	}
	if (e.nodeCount() === 0) return r;
	e.nodes().forEach(function(e) {
		a.add(e, Infinity), r.setNode(e);
	});
	let c = e.nodes()[0];
	c !== void 0 && a.decrease(c, 0);
	let l = !1;
	for (; a.size() > 0;) {
		if (o = a.removeMin(), o in i) r.setEdge(o, i[o]);
		else {
			if (l) throw Error("Input graph is not connected: " + e);
			l = !0;
		}
		(n = e.nodeEdges(o)) == null || n.forEach(s);
	}
	return r;
}
function kt(e, t, n, r) {
	return At(e, t, n, r ?? ((t) => e.outEdges(t) ?? []));
}
function At(e, t, n, r) {
	if (n === void 0) return ft(e, t, n, r);
	let i = !1, a = e.nodes();
	for (let o = 0; o < a.length; o++) {
		let s = a[o];
		if (s === void 0) continue;
		let c = r(s);
		for (let e = 0; e < c.length; e++) {
			let t = c[e];
			if (!t) continue;
			let r = t.v === s ? t.v : t.w;
			n({
				v: r,
				w: r === t.v ? t.w : t.v
			}) < 0 && (i = !0);
		}
		if (i) return st(e, t, n, r);
	}
	return ft(e, t, n, r);
}
var K = Xe;
function q(e, t, n, r) {
	let i = r;
	for (; e.hasNode(i);) i = Wt(r);
	return n.dummy = t, e.setNode(i, n), i;
}
function jt(e) {
	let t = new K().setGraph(e.graph());
	return e.nodes().forEach((n) => t.setNode(n, e.node(n))), e.edges().forEach((n) => {
		let r = t.edge(n.v, n.w) || {
			weight: 0,
			minlen: 1
		}, i = e.edge(n);
		t.setEdge(n.v, n.w, {
			weight: r.weight + i.weight,
			minlen: Math.max(r.minlen, i.minlen)
		});
	}), t;
}
function Mt(e) {
	let t = new K({ multigraph: e.isMultigraph() }).setGraph(e.graph());
	return e.nodes().forEach((n) => {
		e.children(n).length || t.setNode(n, e.node(n));
	}), e.edges().forEach((n) => {
		t.setEdge(n, e.edge(n));
	}), t;
}
function Nt(e, t) {
	let n = e.x, r = e.y, i = t.x - n, a = t.y - r, o = e.width / 2, s = e.height / 2;
	if (!i && !a) throw Error("Not possible to find intersection inside of the rectangle");
	let c, l;
	return i === 0 || Math.abs(a) * o > Math.abs(i) * s ? (a < 0 && (s = -s), c = s * i / a, l = s) : (i < 0 && (o = -o), c = o, l = o * a / i), {
		x: n + c,
		y: r + l
	};
}
function Pt(e) {
	let t = Y(Bt(e) + 1).map(() => []);
	return e.nodes().forEach((n) => {
		let r = e.node(n), i = r.rank;
		i !== void 0 && (t[i] || (t[i] = []), t[i][r.order] = n);
	}), t;
}
function Ft(e) {
	let t = e.nodes().map((t) => {
		let n = e.node(t).rank;
		return n === void 0 ? Number.MAX_VALUE : n;
	}), n = J(Math.min, t);
	e.nodes().forEach((t) => {
		let r = e.node(t);
		Object.hasOwn(r, "rank") && (r.rank -= n);
	});
}
function It(e) {
	let t = e.nodes().map((t) => e.node(t).rank).filter((e) => e !== void 0), n = J(Math.min, t), r = [];
	e.nodes().forEach((t) => {
		let i = e.node(t).rank - n;
		r[i] || (r[i] = []), r[i].push(t);
	});
	let i = 0, a = e.graph().nodeRankFactor;
	Array.from(r).forEach((t, n) => {
		t === void 0 && n % a !== 0 ? --i : t !== void 0 && i && t.forEach((t) => e.node(t).rank += i);
	});
}
function Lt(e, t, n, r) {
	let i = {
		width: 0,
		height: 0
	};
	return arguments.length >= 4 && (i.rank = n, i.order = r), q(e, "border", i, t);
}
function Rt(e, t = zt) {
	let n = [];
	for (let r = 0; r < e.length; r += t) {
		let i = e.slice(r, r + t);
		n.push(i);
	}
	return n;
}
var zt = 65535;
function J(e, t) {
	return t.length > zt ? e(...Rt(t).map((t) => e(...t))) : e(...t);
}
function Bt(e) {
	let t = e.nodes().map((t) => {
		let n = e.node(t).rank;
		return n === void 0 ? Number.MIN_VALUE : n;
	});
	return J(Math.max, t);
}
function Vt(e, t) {
	let n = {
		lhs: [],
		rhs: []
	};
	return e.forEach((e) => {
		t(e) ? n.lhs.push(e) : n.rhs.push(e);
	}), n;
}
function Ht(e, t) {
	return t();
}
var Ut = 0;
function Wt(e) {
	return e + ("" + ++Ut);
}
function Y(e, t, n = 1) {
	t ?? (t = e, e = 0);
	let r = (e) => e < t;
	n < 0 && (r = (e) => t < e);
	let i = [];
	for (let t = e; r(t); t += n) i.push(t);
	return i;
}
function Gt(e, t) {
	let n = {};
	for (let r of t) e[r] !== void 0 && (n[r] = e[r]);
	return n;
}
function Kt(e, t) {
	let n;
	return n = typeof t == "string" ? (e) => e[t] : t, Object.entries(e).reduce((e, [t, r]) => (e[t] = n(r, t), e), {});
}
function qt(e, t) {
	return e.reduce((e, n, r) => (e[n] = t[r], e), {});
}
var Jt = "\0";
function Yt(e, t, n) {
	if (!(e && t && n && t.dummy === "edge" && n.dummy === "edge" && t.edgeObj && n.edgeObj && e[t.edgeObj.v] && e[n.edgeObj.v] && e[t.edgeObj.w] && e[n.edgeObj.w])) return 0;
	let r = !0;
	t.edgeObj.w === n.edgeObj.w && (r = !1);
	let i = r ? e[t.edgeObj.v]?.rank ?? NaN : e[t.edgeObj.w]?.rank ?? NaN, a = Object.entries(e).find((e) => e[1].edgeObj?.v === t.edgeObj.v && e[1].edgeObj?.w === t.edgeObj.w && e[1].rank === i), o = Object.entries(e).find((e) => e[1].edgeObj?.v === n.edgeObj.v && e[1].edgeObj?.w === n.edgeObj.w && e[1].rank === i);
	if (!a || !o) return 0;
	let s = a[1].order ?? NaN, c = o[1].order ?? NaN;
	return isNaN(s - c) ? 0 : s - c;
}
var Xt = class {
	constructor() {
		Ke(this, "_sentinel");
		let e = {};
		e._next = e._prev = e, this._sentinel = e;
	}
	dequeue() {
		let e = this._sentinel, t = e._prev;
		if (t !== e) return Zt(t), t;
	}
	enqueue(e) {
		let t = this._sentinel;
		e._prev && e._next && Zt(e), e._next = t._next, t._next._prev = e, t._next = e, e._prev = t;
	}
	toString() {
		let e = [], t = this._sentinel, n = t._prev;
		for (; n !== t;) e.push(JSON.stringify(n, Qt)), n = n._prev;
		return "[" + e.join(", ") + "]";
	}
};
function Zt(e) {
	e._prev._next = e._next, e._next._prev = e._prev, delete e._next, delete e._prev;
}
function Qt(e, t) {
	if (e !== "_next" && e !== "_prev") return t;
}
var $t = Xt, en = () => 1;
function tn(e, t) {
	if (e.nodeCount() <= 1) return [];
	let n = an(e, t || en);
	return nn(n.graph, n.buckets, n.zeroIdx).flatMap((t) => e.outEdges(t.v, t.w) || []);
}
function nn(e, t, n) {
	let r = [], i = t[t.length - 1], a = t[0], o;
	for (; e.nodeCount();) {
		for (; o = a.dequeue();) rn(e, t, n, o);
		for (; o = i.dequeue();) rn(e, t, n, o);
		if (e.nodeCount()) {
			for (let i = t.length - 2; i > 0; --i) if (o = t[i]?.dequeue(), o) {
				r = r.concat(rn(e, t, n, o, !0) || []);
				break;
			}
		}
	}
	return r;
}
function rn(e, t, n, r, i) {
	let a = [], o = i ? a : void 0;
	return (e.inEdges(r.v) || []).forEach((r) => {
		let o = e.edge(r), s = e.node(r.v);
		i && a.push({
			v: r.v,
			w: r.w
		}), s.out -= o, on(t, n, s);
	}), (e.outEdges(r.v) || []).forEach((r) => {
		let i = e.edge(r), a = r.w, o = e.node(a);
		o.in -= i, on(t, n, o);
	}), e.removeNode(r.v), o;
}
function an(e, t) {
	let n = new K(), r = 0, i = 0;
	e.nodes().forEach((e) => {
		n.setNode(e, {
			v: e,
			in: 0,
			out: 0
		});
	}), e.edges().forEach((e) => {
		let a = n.edge(e.v, e.w) || 0, o = t(e), s = a + o;
		n.setEdge(e.v, e.w, s);
		let c = n.node(e.v), l = n.node(e.w);
		i = Math.max(i, c.out += o), r = Math.max(r, l.in += o);
	});
	let a = sn(i + r + 3).map(() => new $t()), o = r + 1;
	return n.nodes().forEach((e) => {
		on(a, o, n.node(e));
	}), {
		graph: n,
		buckets: a,
		zeroIdx: o
	};
}
function on(e, t, n) {
	var r, i, a;
	n.out ? n.in ? (a = e[n.out - n.in + t]) == null || a.enqueue(n) : (i = e[e.length - 1]) == null || i.enqueue(n) : (r = e[0]) == null || r.enqueue(n);
}
function sn(e) {
	let t = [];
	for (let n = 0; n < e; n++) t.push(n);
	return t;
}
function cn(e, t) {
	(e.graph().acyclicer === "greedy" ? tn(e, n(e)) : ln(e, t ?? null)).forEach((t) => {
		let n = e.edge(t);
		e.removeEdge(t), n.forwardName = t.name, n.reversed = !0, e.setEdge(t.w, t.v, n, Wt("rev"));
	});
	function n(e) {
		return (t) => e.edge(t).weight;
	}
}
function ln(e, t) {
	let n = [], r = {}, i = {};
	function a(t) {
		Object.hasOwn(i, t) || (i[t] = !0, r[t] = !0, e.outEdges(t).forEach((e) => {
			Object.hasOwn(r, e.w) ? n.push(e) : a(e.w);
		}), delete r[t]);
	}
	function o(a) {
		var s;
		Object.hasOwn(i, a) || (i[a] = !0, r[a] = !0, (s = e.outEdges(a)) == null || s.forEach((i) => {
			Object.hasOwn(r, i.w) || t.node(a)?.rank > t.node(i.w)?.rank && dn(e, i.w, i) ? n.push(i) : o(i.w);
		}), delete r[a]);
	}
	let s = a;
	return t && typeof t.node == "function" && (s = o), e.sources().forEach(s), e.nodes().forEach(s), n;
}
function un(e) {
	e.edges().forEach((t) => {
		let n = e.edge(t);
		if (n.reversed) {
			e.removeEdge(t);
			let r = n.forwardName;
			delete n.reversed, delete n.forwardName, e.setEdge(t.w, t.v, n, r);
		}
	});
}
function dn(e, t, n) {
	let r = /* @__PURE__ */ new Set();
	function i(t) {
		if (e.sources().includes(t)) return !0;
		r.add(t);
		for (let a of e.inEdges(t) ?? []) if ((a.v !== n.v || a.w !== n.w) && !r.has(a.v) && i(a.v)) return !0;
		return !1;
	}
	return i(t);
}
function fn(e) {
	e.graph().dummyChains = [], e.edges().forEach((t) => pn(e, t));
}
function pn(e, t) {
	let n = t.v, r = e.node(n).rank, i = t.w, a = e.node(i).rank, o = t.name, s = e.edge(t), c = s.labelRank;
	if (a === r + 1) return;
	e.removeEdge(t);
	let l, u, d = 0;
	for (++r; r < a; ++d, ++r) s.points = [], u = {
		width: 0,
		height: 0,
		edgeLabel: s,
		edgeObj: t,
		rank: r
	}, l = q(e, "edge", u, "_d"), r === c && (u.width = s.width, u.height = s.height, u.dummy = "edge-label", u.labelpos = s.labelpos), e.setEdge(n, l, { weight: s.weight }, o), d === 0 && e.graph().dummyChains.push(l), n = l;
	e.setEdge(n, i, { weight: s.weight }, o);
}
function mn(e) {
	e.graph().dummyChains.forEach((t) => {
		let n = e.node(t), r = n.edgeLabel, i;
		for (e.setEdge(n.edgeObj, r); n.dummy;) i = e.successors(t)[0], e.removeNode(t), r.points.push({
			x: n.x,
			y: n.y
		}), n.dummy === "edge-label" && (r.x = n.x, r.y = n.y, r.width = n.width, r.height = n.height), t = i, n = e.node(t);
	});
}
function hn(e) {
	let t = {};
	function n(r) {
		let i = e.node(r);
		if (Object.hasOwn(t, r)) return i.rank;
		t[r] = !0;
		let a = e.outEdges(r), o = a ? a.map((t) => t == null ? Infinity : n(t.w) - e.edge(t).minlen) : [], s = J(Math.min, o);
		return s === Infinity && (s = 0), i.rank = s;
	}
	e.sources().forEach(n);
}
function X(e, t) {
	return e.node(t.w).rank - e.node(t.v).rank - e.edge(t).minlen;
}
var gn = _n;
function _n(e) {
	let t = new K({ directed: !1 }), n = e.nodes();
	if (n.length === 0) throw Error("Graph must have at least one node");
	let r = n[0], i = e.nodeCount();
	t.setNode(r, {});
	let a, o;
	for (; vn(t, e) < i && (a = yn(t, e), a);) o = t.hasNode(a.v) ? X(e, a) : -X(e, a), bn(t, e, o);
	return t;
}
function vn(e, t) {
	function n(r) {
		let i = t.nodeEdges(r);
		i && i.forEach((i) => {
			let a = i.v, o = r === a ? i.w : a;
			!e.hasNode(o) && !X(t, i) && (e.setNode(o, {}), e.setEdge(r, o, {}), n(o));
		});
	}
	return e.nodes().forEach(n), e.nodeCount();
}
function yn(e, t) {
	return t.edges().reduce((n, r) => {
		let i = Infinity;
		return e.hasNode(r.v) !== e.hasNode(r.w) && (i = X(t, r)), i < n[0] ? [i, r] : n;
	}, [Infinity, null])[1];
}
function bn(e, t, n) {
	e.nodes().forEach((e) => t.node(e).rank += n);
}
var { preorder: xn, postorder: Sn } = at, Cn = Z;
Z.initLowLimValues = Dn, Z.initCutValues = wn, Z.calcCutValue = En, Z.leaveEdge = kn, Z.enterEdge = An, Z.exchangeEdges = jn;
function Z(e) {
	e = jt(e), hn(e);
	let t = gn(e);
	Dn(t), wn(t, e);
	let n, r;
	for (; n = kn(t);) r = An(t, e, n), jn(t, e, n, r);
}
function wn(e, t) {
	let n = Sn(e, e.nodes());
	n = n.slice(0, n.length - 1), n.forEach((n) => Tn(e, t, n));
}
function Tn(e, t, n) {
	let r = e.node(n).parent, i = e.edge(n, r);
	i.cutvalue = En(e, t, n);
}
function En(e, t, n) {
	let r = e.node(n).parent, i = !0, a = t.edge(n, r), o = 0;
	a ||= (i = !1, t.edge(r, n)), o = a.weight;
	let s = t.nodeEdges(n);
	return s && s.forEach((a) => {
		let s = a.v === n, c = s ? a.w : a.v;
		if (c !== r) {
			let r = s === i, l = t.edge(a).weight;
			if (o += r ? l : -l, Nn(e, n, c)) {
				let t = e.edge(n, c).cutvalue;
				o += r ? -t : t;
			}
		}
	}), o;
}
function Dn(e, t) {
	arguments.length < 2 && (t = e.nodes()[0]), On(e, {}, 1, t);
}
function On(e, t, n, r, i) {
	let a = n, o = e.node(r);
	t[r] = !0;
	let s = e.neighbors(r);
	return s && s.forEach((i) => {
		Object.hasOwn(t, i) || (n = On(e, t, n, i, r));
	}), o.low = a, o.lim = n++, i ? o.parent = i : delete o.parent, n;
}
function kn(e) {
	return e.edges().find((t) => e.edge(t).cutvalue < 0);
}
function An(e, t, n) {
	let r = n.v, i = n.w;
	t.hasEdge(r, i) || (r = n.w, i = n.v);
	let a = e.node(r), o = e.node(i), s = a, c = !1;
	return a.lim > o.lim && (s = o, c = !0), t.edges().filter((t) => c === Pn(e, e.node(t.v), s) && c !== Pn(e, e.node(t.w), s)).reduce((e, n) => X(t, n) < X(t, e) ? n : e);
}
function jn(e, t, n, r) {
	let i = n.v, a = n.w;
	e.removeEdge(i, a), e.setEdge(r.v, r.w, {}), Dn(e), wn(e, t), Mn(e, t);
}
function Mn(e, t) {
	let n = e.nodes().find((t) => !e.node(t).parent);
	if (!n) return;
	let r = xn(e, [n]);
	r = r.slice(1), r.forEach((n) => {
		let r = e.node(n).parent, i = t.edge(n, r), a = !1;
		i || (i = t.edge(r, n), a = !0), t.node(n).rank = t.node(r).rank + (a ? i.minlen : -i.minlen);
	});
}
function Nn(e, t, n) {
	return e.hasEdge(t, n);
}
function Pn(e, t, n) {
	return n.low <= t.lim && t.lim <= n.lim;
}
var Fn = In;
function In(e) {
	let t = e.graph().ranker;
	if (typeof t == "function") return t(e);
	switch (t) {
		case "network-simplex":
			zn(e);
			break;
		case "tight-tree":
			Rn(e);
			break;
		case "longest-path":
			Ln(e);
			break;
		case "none": break;
		default: zn(e);
	}
}
var Ln = hn;
function Rn(e) {
	hn(e), gn(e);
}
function zn(e) {
	Cn(e);
}
var Bn = Vn;
function Vn(e) {
	let t = Un(e), n = e.graph();
	Array.isArray(n.dummyChains) && n.dummyChains.forEach((n) => {
		let r = e.node(n), i = r.edgeObj, a = Hn(e, t, i.v, i.w), o = a.path, s = a.lca, c = 0, l = o[c], u = !0;
		for (; n !== i.w;) {
			if (r = e.node(n), u) {
				for (; (l = o[c]) !== s && e.node(l).maxRank < r.rank;) c++;
				l === s && (u = !1);
			}
			if (!u) {
				for (; c < o.length - 1 && e.node(o[c + 1]).minRank <= r.rank;) c++;
				l = o[c];
			}
			l !== void 0 && e.setParent(n, l), n = e.successors(n)[0];
		}
	});
}
function Hn(e, t, n, r) {
	let i = [], a = [], o = Math.min(t[n].low, t[r].low), s = Math.max(t[n].lim, t[r].lim), c;
	c = n;
	do
		c = e.parent(c), i.push(c);
	while (c && (t[c].low > o || s > t[c].lim));
	let l = c, u = r;
	for (; (u = e.parent(u)) !== l;) a.push(u);
	return {
		path: i.concat(a.reverse()),
		lca: l
	};
}
function Un(e) {
	let t = {}, n = 0;
	function r(i) {
		let a = n;
		e.children(i).forEach(r), t[i] = {
			low: a,
			lim: n++
		};
	}
	return e.children(Jt).forEach(r), t;
}
function Wn(e) {
	let t = q(e, "root", {}, "_root"), n = Kn(e), r = Object.values(n), i = J(Math.max, r) - 1, a = 2 * i + 1;
	e.graph().nestingRoot = t, e.edges().forEach((t) => e.edge(t).minlen *= a);
	let o = qn(e) + 1;
	e.children(Jt).forEach((r) => {
		Gn(e, t, a, o, i, n, r);
	}), e.graph().nodeRankFactor = a;
}
function Gn(e, t, n, r, i, a, o) {
	let s = e.children(o);
	if (!s.length) {
		o !== t && e.setEdge(t, o, {
			weight: 0,
			minlen: n
		});
		return;
	}
	let c = Lt(e, "_bt"), l = Lt(e, "_bb"), u = e.node(o);
	e.setParent(c, o), u.borderTop = c, e.setParent(l, o), u.borderBottom = l, s.forEach((s) => {
		Gn(e, t, n, r, i, a, s);
		let u = e.node(s), d = u.borderTop ? u.borderTop : s, f = u.borderBottom ? u.borderBottom : s, p = u.borderTop ? r : 2 * r, m = d === f ? i - (a[o] ?? 0) + 1 : 1;
		e.setEdge(c, d, {
			weight: p,
			minlen: m,
			nestingEdge: !0
		}), e.setEdge(f, l, {
			weight: p,
			minlen: m,
			nestingEdge: !0
		});
	}), e.parent(o) || e.setEdge(t, c, {
		weight: 0,
		minlen: i + (a[o] ?? 0)
	});
}
function Kn(e) {
	let t = {};
	function n(r, i) {
		let a = e.children(r);
		a && a.length && a.forEach((e) => n(e, i + 1)), t[r] = i;
	}
	return e.children(Jt).forEach((e) => n(e, 1)), t;
}
function qn(e) {
	return e.edges().reduce((t, n) => t + e.edge(n).weight, 0);
}
function Jn(e) {
	let t = e.graph();
	e.removeNode(t.nestingRoot), delete t.nestingRoot, e.edges().forEach((t) => {
		e.edge(t).nestingEdge && e.removeEdge(t);
	});
}
var Yn = Xn;
function Xn(e) {
	function t(n) {
		let r = e.children(n), i = e.node(n);
		if (r.length && r.forEach(t), i && Object.hasOwn(i, "minRank")) {
			i.borderLeft = [], i.borderRight = [];
			for (let t = i.minRank, r = i.maxRank + 1; t < r; ++t) Zn(e, "borderLeft", "_bl", n, i, t), Zn(e, "borderRight", "_br", n, i, t);
		}
	}
	e.children(Jt).forEach(t);
}
function Zn(e, t, n, r, i, a) {
	let o = {
		width: 0,
		height: 0,
		rank: a,
		borderType: t
	}, s = i[t][a - 1], c = q(e, "border", o, n);
	i[t][a] = c, e.setParent(c, r), s && e.setEdge(s, c, { weight: 1 });
}
function Qn(e) {
	let t = e.graph().rankdir?.toLowerCase();
	(t === "lr" || t === "rl") && er(e);
}
function $n(e) {
	let t = e.graph().rankdir?.toLowerCase();
	(t === "bt" || t === "rl") && nr(e), (t === "lr" || t === "rl") && (ir(e), er(e));
}
function er(e) {
	e.nodes().forEach((t) => tr(e.node(t))), e.edges().forEach((t) => tr(e.edge(t)));
}
function tr(e) {
	let t = e.width;
	e.width = e.height, e.height = t;
}
function nr(e) {
	e.nodes().forEach((t) => rr(e.node(t))), e.edges().forEach((t) => {
		var n;
		let r = e.edge(t);
		(n = r.points) == null || n.forEach(rr), Object.hasOwn(r, "y") && rr(r);
	});
}
function rr(e) {
	e.y = -e.y;
}
function ir(e) {
	e.nodes().forEach((t) => ar(e.node(t))), e.edges().forEach((t) => {
		var n;
		let r = e.edge(t);
		(n = r.points) == null || n.forEach(ar), Object.hasOwn(r, "x") && ar(r);
	});
}
function ar(e) {
	let t = e.x;
	e.x = e.y, e.y = t;
}
function or(e, t = null) {
	let n = {}, r = e.nodes().filter((t) => !e.children(t).length), i = r.map((t) => e.node(t).rank), a = Y(J(Math.max, i) + 1).map(() => []);
	function o(t) {
		if (n[t]) return;
		n[t] = !0;
		let r = e.node(t);
		a[r.rank].push(t);
		let i = e.successors(t);
		i && [...i].sort((e, t) => s(e, t)).forEach(o);
	}
	r.sort((t, n) => e.node(t).rank - e.node(n).rank).forEach(o);
	function s(n, r) {
		return Yt(t, e.node(n), e.node(r));
	}
	return a;
}
function sr(e, t) {
	let n = 0;
	for (let r = 1; r < t.length; ++r) n += cr(e, t[r - 1], t[r]);
	return n;
}
function cr(e, t, n) {
	let r = qt(n, n.map((e, t) => t)), i = t.flatMap((t) => {
		let n = e.outEdges(t);
		return n ? n.map((t) => ({
			pos: r[t.w],
			weight: e.edge(t).weight
		})).sort((e, t) => e.pos - t.pos) : [];
	}), a = 1;
	for (; a < n.length;) a <<= 1;
	let o = 2 * a - 1;
	--a;
	let s = Array(o).fill(0), c = 0;
	return i.forEach((e) => {
		let t = e.pos + a;
		s[t] += e.weight;
		let n = 0;
		for (; t > 0;) t % 2 && (n += s[t + 1]), t = t - 1 >> 1, s[t] += e.weight;
		c += e.weight * n;
	}), c;
}
function lr(e, t = []) {
	return t.map((t) => {
		let n = e.inEdges(t);
		if (!n || !n.length) return { v: t };
		{
			let r = n.reduce((t, n) => {
				let r = e.edge(n), i = e.node(n.v);
				return {
					sum: t.sum + r.weight * i.order,
					weight: t.weight + r.weight
				};
			}, {
				sum: 0,
				weight: 0
			});
			return {
				v: t,
				barycenter: r.sum / r.weight,
				weight: r.weight
			};
		}
	});
}
function ur(e, t) {
	let n = {};
	return e.forEach((e, t) => {
		let r = {
			indegree: 0,
			in: [],
			out: [],
			vs: [e.v],
			i: t
		};
		e.barycenter !== void 0 && (r.barycenter = e.barycenter, r.weight = e.weight), n[e.v] = r;
	}), t.edges().forEach((e) => {
		let t = n[e.v], r = n[e.w];
		t !== void 0 && r !== void 0 && (r.indegree++, t.out.push(r));
	}), dr(Object.values(n).filter((e) => !e.indegree));
}
function dr(e) {
	let t = [];
	function n(e) {
		return (t) => {
			t.merged || (t.barycenter === void 0 || e.barycenter === void 0 || t.barycenter >= e.barycenter) && fr(e, t);
		};
	}
	function r(t) {
		return (n) => {
			n.in.push(t), --n.indegree === 0 && e.push(n);
		};
	}
	for (; e.length;) {
		let i = e.pop();
		t.push(i), i.in.reverse().forEach(n(i)), i.out.forEach(r(i));
	}
	return t.filter((e) => !e.merged).map((e) => Gt(e, [
		"vs",
		"i",
		"barycenter",
		"weight"
	]));
}
function fr(e, t) {
	let n = 0, r = 0;
	e.weight && (n += e.barycenter * e.weight, r += e.weight), t.weight && (n += t.barycenter * t.weight, r += t.weight), e.vs = t.vs.concat(e.vs), e.barycenter = n / r, e.weight = r, e.i = Math.min(t.i, e.i), t.merged = !0;
}
function pr(e, t, n, r, i) {
	let a = {}, o = null, s = null, c = i;
	typeof t == "boolean" ? (c = t, a = {}) : t && (a = t, o = n ?? null, s = r ?? null);
	let l = Vt(e, (e) => Object.hasOwn(e, "barycenter")), u = l.lhs, d = l.rhs.sort((e, t) => t.i - e.i), f = [], p = 0, m = 0, h = 0;
	u.sort(hr(s, o, !!c));
	for (let [e, t] of Object.entries(a)) {
		let n = u.findIndex((t) => t.vs[0] === e);
		u.splice(n + 1, 0, t);
	}
	h = mr(f, d, h), u.forEach((e) => {
		h += e.vs.length, f.push(e.vs), p += e.barycenter * e.weight, m += e.weight, h = mr(f, d, h);
	});
	let g = { vs: f.flat(1) };
	return m && (g.barycenter = p / m, g.weight = m), g;
}
function mr(e, t, n) {
	let r;
	for (; t.length && (r = t[t.length - 1]).i <= n;) t.pop(), e.push(r.vs), n++;
	return n;
}
function hr(e, t, n) {
	return (r, i) => {
		if (r.barycenter < i.barycenter) return -1;
		if (r.barycenter > i.barycenter) return 1;
		if (e && (typeof r.vs[0] == "string" || typeof i.vs[0] == "string")) {
			let n = Yt(t, e.node(r.vs[0]), e.node(i.vs[0]));
			if (n !== 0) return n;
		}
		return n ? i.i - r.i : r.i - i.i;
	};
}
function gr(e, t, n, r, i) {
	var a, o;
	let s = null, c = i;
	typeof r == "boolean" ? (c = r, s = null) : r !== void 0 && (s = r);
	let l = e.children(t), u = e.node(t), d = u ? u.borderLeft : void 0, f = u ? u.borderRight : void 0, p = {};
	d && (l = l.filter((e) => e !== d && e !== f));
	let m = lr(e, l);
	m.forEach((t) => {
		if (e.children(t.v).length) {
			let { result: r } = gr(e, t.v, n, s, c);
			p[t.v] = r, Object.hasOwn(r, "barycenter") && vr(t, r);
		}
	});
	let h = ur(m, n);
	_r(h, p);
	let g = {}, _ = !1;
	for (let t = 0; t < h.length; t++) for (let n = t + 1; n < h.length; n++) if (h[t] && h[n] && (a = h[t]) != null && a.barycenter && (o = h[n]) != null && o.barycenter && h[t]?.barycenter === h[n].barycenter) {
		let r = h[t]?.vs[0] ?? "", i = h[n]?.vs[0] ?? "", a = e.node(r), o = e.node(i);
		if (a.dummy === "edge" && o.dummy === "edge" && a.edgeObj?.v === o.edgeObj?.v && a.edgeObj?.w === o.edgeObj?.w) {
			if (a.edgeLabel.reversed) {
				g[i] = h[t], h.splice(t, 1), t--;
				break;
			}
			g[r] || (g[r] = h[n], h.splice(n, 1), n--);
		} else _ = !0;
	}
	let v = pr(h, g, s, e, c);
	if (d && f) {
		v.vs = [
			d,
			v.vs,
			f
		].flat(1);
		let t = e.predecessors(d);
		if (t && t.length) {
			let n = e.node(t[0]), r = e.predecessors(f), i = e.node(r[0]);
			Object.hasOwn(v, "barycenter") || (v.barycenter = 0, v.weight = 0), v.barycenter = (v.barycenter * v.weight + n.order + i.order) / (v.weight + 2), v.weight += 2;
		}
	}
	return Object.defineProperty(v, "result", {
		value: v,
		enumerable: !1,
		configurable: !0,
		writable: !0
	}), Object.defineProperty(v, "usedBias", {
		value: _,
		enumerable: !1,
		configurable: !0,
		writable: !0
	}), v;
}
function _r(e, t) {
	e.forEach((e) => {
		e.vs = e.vs.flatMap((e) => t[e] ? t[e].vs : e);
	});
}
function vr(e, t) {
	e.barycenter === void 0 ? (e.barycenter = t.barycenter, e.weight = t.weight) : (e.barycenter = (e.barycenter * e.weight + t.barycenter * t.weight) / (e.weight + t.weight), e.weight += t.weight);
}
function yr(e, t, n, r) {
	r ||= e.nodes();
	let i = br(e), a = new K({ compound: !0 }).setGraph({ root: i }).setDefaultNodeLabel((t) => e.node(t));
	return r.forEach((r) => {
		let o = e.node(r), s = e.parent(r);
		if (o.rank === t || o.minRank <= t && t <= o.maxRank) {
			a.setNode(r), a.setParent(r, s || i);
			let c = e[n](r);
			c && c.forEach((t) => {
				let n = t.v === r ? t.w : t.v, i = a.edge(n, r), o = i === void 0 ? 0 : i.weight;
				a.setEdge(n, r, { weight: e.edge(t).weight + o });
			}), Object.hasOwn(o, "minRank") && a.setNode(r, {
				borderLeft: o.borderLeft[t],
				borderRight: o.borderRight[t]
			});
		}
	}), a;
}
function br(e) {
	let t;
	for (; e.hasNode(t = Wt("_root")););
	return t;
}
function xr(e, t, n) {
	let r = {}, i;
	n.forEach((n) => {
		let a = e.parent(n), o, s;
		for (; a;) {
			if (o = e.parent(a), o ? (s = r[o], r[o] = a) : (s = i, i = a), s && s !== a) {
				t.setEdge(s, a);
				return;
			}
			a = o;
		}
	});
}
function Sr(e, t = {}, n = null) {
	if (typeof t.customOrder == "function") {
		t.customOrder(e, Sr);
		return;
	}
	let r = Bt(e), i = Cr(e, Y(1, r + 1), "inEdges"), a = Cr(e, Y(r - 1, -1, -1), "outEdges"), o = or(e, n);
	if (Tr(e, o), t.disableOptimalOrderHeuristic) return;
	let s = Infinity, c, l = t.constraints || [];
	for (let t = 0, r = 0; r < 4; ++t, ++r) {
		wr(t % 2 ? i : a, t % 4 >= 2, l, n), o = Pt(e);
		let u = sr(e, o);
		u < s ? (r = 0, c = Object.assign({}, o), s = u) : u === s && (c = structuredClone(o));
	}
	Tr(e, c);
}
function Cr(e, t, n) {
	let r = /* @__PURE__ */ new Map(), i = (e, t) => {
		r.has(e) || r.set(e, []), r.get(e).push(t);
	};
	for (let t of e.nodes()) {
		let n = e.node(t);
		if (typeof n.rank == "number" && i(n.rank, t), typeof n.minRank == "number" && typeof n.maxRank == "number") for (let e = n.minRank; e <= n.maxRank; e++) e !== n.rank && i(e, t);
	}
	return t.map(function(t) {
		return yr(e, t, n, r.get(t) || []);
	});
}
function wr(e, t, n, r) {
	let i = !0, a = new K();
	e.forEach(function(e) {
		n.forEach((e) => a.setEdge(e.left, e.right));
		let o = e.graph().root, { result: s, usedBias: c } = gr(e, o, a, r, i);
		t && c && (i = !i), s.vs.forEach((t, n) => e.node(t).order = n), xr(e, a, s.vs);
	});
}
function Tr(e, t) {
	Object.values(t).forEach((t) => t.forEach((t, n) => e.node(t).order = n));
}
function Er(e, t) {
	let n = {};
	function r(t, r) {
		let i = 0, a = 0, o = t.length, s = r[r.length - 1];
		return r.forEach((t, c) => {
			let l = Or(e, t), u = l ? e.node(l).order : o;
			(l || t === s) && (r.slice(a, c + 1).forEach((t) => {
				let r = e.predecessors(t);
				r && r.forEach((r) => {
					let a = e.node(r), o = a.order;
					(o < i || u < o) && !(a.dummy && e.node(t).dummy) && kr(n, r, t);
				});
			}), a = c + 1, i = u);
		}), r;
	}
	return t.length && t.reduce(r), n;
}
function Dr(e, t) {
	let n = {};
	function r(t) {
		return e.node(t)?.dummy === "border";
	}
	if (!e.nodes().some(r)) return n;
	function i(t, r, i, a, o) {
		Y(r, i).forEach((r) => {
			let i = t[r];
			if (i !== void 0 && e.node(i).dummy) {
				let t = e.predecessors(i);
				t && t.forEach((t) => {
					if (t === void 0) return;
					let r = e.node(t);
					r.dummy && (r.order < a || r.order > o) && kr(n, t, i);
				});
			}
		});
	}
	function a(t, n) {
		let a = -1, o = -1, s = 0;
		return n.forEach((c, l) => {
			if (r(c)) {
				let t = e.predecessors(c);
				if (t && t.length) {
					let r = t[0];
					if (r === void 0) return;
					o = e.node(r).order, i(n, s, l, a, o), s = l, a = o;
				}
			}
			i(n, s, n.length, o, t.length);
		}), n;
	}
	return t.length && t.reduce(a), n;
}
function Or(e, t) {
	if (e.node(t).dummy) {
		let n = e.predecessors(t);
		if (n) return n.find((t) => e.node(t).dummy);
	}
}
function kr(e, t, n) {
	if (t > n) {
		let e = t;
		t = n, n = e;
	}
	let r = e[t];
	r || (e[t] = r = {}), r[n] = !0;
}
function Ar(e, t, n) {
	if (t > n) {
		let e = t;
		t = n, n = e;
	}
	let r = e[t];
	return r !== void 0 && Object.hasOwn(r, n);
}
function jr(e, t, n, r, i) {
	let a = {}, o = {}, s = {};
	return t.forEach((e) => {
		e.forEach((e, t) => {
			a[e] = e, o[e] = e, s[e] = t;
		});
	}), t.forEach((t) => {
		let c = -1, l = -1, u = !1, d = t, f = t.findIndex((t) => i?.includes(t) || Br(t, e, i));
		f > 0 && (d = [
			t[f],
			...t.slice(0, f),
			...t.slice(f + 1)
		], u = !0), d.forEach((t) => {
			let d = r(t);
			if (d && d.length) {
				i != null && i.includes(t) && (d = d.filter((t) => Br(t, e, i)));
				let r = d.sort((e, t) => {
					let n = s[e], r = s[t];
					return (n === void 0 ? 0 : n) - (r === void 0 ? 0 : r);
				}), f = (r.length - 1) / 2;
				for (let e = Math.floor(f), i = Math.ceil(f); e <= i; ++e) {
					let i = r[e];
					if (i === void 0) continue;
					let d = s[i];
					if (d !== void 0 && o[t] === t && c < d && s[i] !== l && !Ar(n, t, i)) {
						let e = a[i];
						e !== void 0 && (o[i] = t, o[t] = a[t] = e, c = d, u &&= (c = -1, l = s[i] ?? -1, !1));
					}
				}
			}
		});
	}), {
		root: a,
		align: o
	};
}
function Mr(e, t, n, r, i = !1) {
	let a = {}, o = Nr(e, t, n, i), s = i ? "borderLeft" : "borderRight";
	function c(e, t) {
		let n = o.nodes().slice(), r = {}, i = n.pop();
		for (; i;) {
			if (r[i]) e(i);
			else {
				r[i] = !0, n.push(i);
				for (let e of t(i)) n.push(e);
			}
			i = n.pop();
		}
	}
	function l(e) {
		let t = o.inEdges(e);
		t ? a[e] = t.reduce((e, t) => {
			let n = a[t.v] ?? 0, r = o.edge(t);
			return Math.max(e, n + (r === void 0 ? 0 : r));
		}, 0) : a[e] = 0;
	}
	function u(t) {
		let n = o.outEdges(t), r = Infinity;
		n && (r = n.reduce((e, t) => {
			let n = a[t.w], r = o.edge(t);
			return Math.min(e, (n === void 0 ? 0 : n) - (r === void 0 ? 0 : r));
		}, Infinity));
		let i = e.node(t);
		r !== Infinity && i.borderType !== s && (a[t] = Math.max(a[t] === void 0 ? 0 : a[t], r));
	}
	function d(e) {
		return o.predecessors(e) || [];
	}
	function f(e) {
		return o.successors(e) || [];
	}
	return c(l, d), c(u, f), Object.keys(r).forEach((e) => {
		let t = n[e];
		t !== void 0 && (a[e] = a[t] ?? 0);
	}), a;
}
function Nr(e, t, n, r) {
	let i = new K(), a = e.graph(), o = Rr(a.nodesep, a.edgesep, r);
	return t.forEach((t) => {
		let r;
		t.forEach((t) => {
			let a = n[t];
			if (a !== void 0) {
				if (i.setNode(a), r !== void 0) {
					let s = n[r];
					if (s !== void 0) {
						let n = i.edge(s, a);
						i.setEdge(s, a, Math.max(o(e, t, r), n || 0));
					}
				}
				r = t;
			}
		});
	}), i;
}
function Pr(e, t) {
	return Object.values(t).reduce((t, n) => {
		let r = -Infinity, i = Infinity;
		Object.entries(n).forEach(([t, n]) => {
			let a = zr(e, t) / 2;
			r = Math.max(n + a, r), i = Math.min(n - a, i);
		});
		let a = r - i;
		return a < t[0] && (t = [a, n]), t;
	}, [Infinity, null])[1];
}
function Fr(e, t) {
	let n = Object.values(t), r = J(Math.min, n), i = J(Math.max, n);
	["u", "d"].forEach((n) => {
		["l", "r"].forEach((a) => {
			let o = n + a, s = e[o];
			if (!s || s === t) return;
			let c = Object.values(s), l = r - J(Math.min, c);
			a !== "l" && (l = i - J(Math.max, c)), l && (e[o] = Kt(s, (e) => e + l));
		});
	});
}
function Ir(e, t = void 0) {
	let n = e.ul;
	return n ? Kt(n, (n, r) => {
		if (t) {
			let n = e[t.toLowerCase()];
			if (n && n[r] !== void 0) return n[r];
		}
		let i = Object.values(e).map((e) => {
			let t = e[r];
			return t === void 0 ? 0 : t;
		}).sort((e, t) => e - t);
		return ((i[1] ?? 0) + (i[2] ?? 0)) / 2;
	}) : {};
}
function Lr(e, t) {
	let n = Pt(e), r = Object.assign(Er(e, n), Dr(e, n)), i = {}, a;
	return ["u", "d"].forEach((o) => {
		a = o === "u" ? n : Object.values(n).reverse(), ["l", "r"].forEach((n) => {
			n === "r" && (a = a.map((e) => Object.values(e).reverse()));
			let s = jr(e, a, r, (t) => (o === "u" ? e.predecessors(t) : e.successors(t)) || [], t), c = Mr(e, a, s.root, s.align, n === "r");
			n === "r" && (c = Kt(c, (e) => -e)), i[o + n] = c;
		});
	}), Fr(i, Pr(e, i)), Ir(i, e.graph().align);
}
function Rr(e, t, n) {
	return (r, i, a) => {
		let o = r.node(i), s = r.node(a), c = 0, l;
		if (c += o.width / 2, Object.hasOwn(o, "labelpos")) switch (o.labelpos.toLowerCase()) {
			case "l":
				l = -o.width / 2;
				break;
			case "r": l = o.width / 2;
		}
		if (l && (c += n ? l : -l), l = void 0, c += (o.dummy ? t : e) / 2, c += (s.dummy ? t : e) / 2, c += s.width / 2, Object.hasOwn(s, "labelpos")) switch (s.labelpos.toLowerCase()) {
			case "l":
				l = s.width / 2;
				break;
			case "r": l = -s.width / 2;
		}
		return l && (c += n ? l : -l), c;
	};
}
function zr(e, t) {
	return e.node(t).width;
}
function Br(e, t, n) {
	if (!n) return !1;
	let r = t.node(e)?.edgeObj;
	if (!r || t.node(e).edgeLabel.reversed) return !1;
	let i = n.indexOf(r?.v), a = n.indexOf(r?.w);
	return i !== -1 && a !== -1 && i === (a + 1) % n.length || i === (a - 1) % n.length;
}
function Vr(e, t) {
	e = Mt(e), Hr(e), Object.entries(Lr(e, t)).forEach(([t, n]) => e.node(t).x = n);
}
function Hr(e) {
	let t = Pt(e), n = e.graph(), r = n.ranksep, i = n.rankalign, a = 0;
	t.forEach((t) => {
		let n = t.reduce((t, n) => {
			let r = e.node(n).height ?? 0;
			return t > r ? t : r;
		}, 0);
		t.forEach((t) => {
			let r = e.node(t);
			r.y = i === "top" ? a + r.height / 2 : i === "bottom" ? a + n - r.height / 2 : a + n / 2;
		}), a += n + r;
	});
}
var Ur = /* @__PURE__ */ new WeakMap();
function Wr(e, t = {}) {
	return Kr(e, Ht, t), e;
}
function Gr(e, t, n) {
	let r = t;
	for (; r !== void 0;) {
		let t = e.parent(r);
		if (t === n) return r;
		r = t;
	}
}
function Kr(e, t, n) {
	let r = e.nodes().filter((t) => e.children(t).length), i = {};
	r.forEach((r) => {
		let a = e.node(r);
		if (a && a.rankdir) {
			let o = new K({
				multigraph: !0,
				compound: !0
			});
			o.setGraph({ rankdir: a.rankdir });
			let s = e.children(r);
			s.forEach((t) => {
				let n = { ...e.node(t) };
				o.setNode(t, n);
				let i = e.parent(t);
				i && i !== r && s.includes(i) && o.setParent(t, i);
			});
			let c = /* @__PURE__ */ new Set();
			e.edges().forEach((t) => {
				let n = Gr(e, t.v, r), i = Gr(e, t.w, r);
				if (n === t.v && i === t.w) o.setEdge(t, { ...e.edge(t) });
				else if (n && i && n !== i) {
					let r = `${n}\0${i}`;
					c.has(r) || (c.add(r), o.setEdge(n, i, { ...e.edge(t) }));
				}
			}), Kr(o, t, n);
			let l = ii(o);
			Jr(l, t, n, null), Yr(o, l);
			let u = 1 / 0, d = 1 / 0, f = -1 / 0, p = -1 / 0;
			o.nodes().forEach((e) => {
				if (e === r) return;
				let t = o.node(e);
				t && typeof t.x == "number" && typeof t.y == "number" && typeof t.width == "number" && typeof t.height == "number" && (u = Math.min(u, t.x - t.width / 2), f = Math.max(f, t.x + t.width / 2), d = Math.min(d, t.y - t.height / 2), p = Math.max(p, t.y + t.height / 2));
			}), isFinite(u) && isFinite(d) && isFinite(f) && isFinite(p) || (u = d = 0, f = p = 0);
			let m = f - u, h = p - d;
			i[r] = {
				minX: u,
				minY: d,
				maxX: f,
				maxY: p,
				width: m,
				height: h,
				offsetX: u,
				offsetY: d
			}, a._dagreClusterSubgraph = o;
		}
	});
	let a = [], o = (t) => {
		let n = [], r = (e.children(t) || []).filter((e) => e !== t);
		for (; r.length > 0;) {
			let t = r.shift();
			n.push(t), (e.children(t) || []).filter((e) => e !== t).forEach((e) => r.push(e));
		}
		return n;
	}, s = /* @__PURE__ */ new Map();
	r.forEach((t) => {
		let n = e.node(t);
		n && n.rankdir && i[t] && s.set(t, (e.children(t) || []).filter((e) => e !== t));
	});
	let c = new Set([...s.values()].flat()), l = /* @__PURE__ */ new Map();
	s.forEach((e, t) => {
		c.has(t) || l.set(t, o(t));
	});
	let u = new Set([...l.values()].flat()), d = (e) => {
		for (let [t, n] of l) if (n.includes(e)) return t;
		return e;
	}, f = [];
	e.edges().forEach((t) => {
		(u.has(t.v) || u.has(t.w)) && f.push({
			edge: t,
			label: e.edge(t)
		});
	});
	let p = /* @__PURE__ */ new Map();
	u.forEach((t) => {
		let n = e.parent(t);
		p.set(t, typeof n == "string" ? n : void 0);
	}), l.forEach((t, n) => {
		let r = e.node(n), o = [];
		t.forEach((t) => {
			let n = e.node(t);
			n && (o.push({
				id: t,
				node: n,
				parent: p.get(t)
			}), e.removeNode(t));
		});
		let s = f.filter(({ edge: e }) => t.includes(e.v) || t.includes(e.w)), c = i[n];
		r && (a.push({
			clusterId: n,
			subgraph: r._dagreClusterSubgraph,
			bounds: c,
			children: t,
			removedNodes: o,
			removedEdges: s
		}), r.width = c.width, r.height = c.height);
	});
	let m = /* @__PURE__ */ new Set();
	f.forEach(({ edge: t, label: n }) => {
		let r = d(t.v), i = d(t.w);
		if (r !== i && e.hasNode(r) && e.hasNode(i)) {
			let t = `${r}\0${i}`;
			m.has(t) || (m.add(t), e.setEdge(r, i, {
				...n,
				width: 0,
				height: 0
			}));
		}
	});
	let h = ii(e), g = Jr(h, t, n, Ur.get(e) ?? null);
	Ur.set(e, g), Yr(e, h), m.forEach((t) => {
		let n = t.indexOf("\0"), r = t.slice(0, n), i = t.slice(n + 1);
		e.hasEdge(r, i) && e.removeEdge(r, i);
	}), a.forEach(({ clusterId: t, subgraph: n, bounds: r, removedNodes: i, removedEdges: a }) => {
		let o = e.node(t), s = o?.x ?? 0, c = o?.y ?? 0, l = (r.minX + r.maxX) / 2, u = (r.minY + r.maxY) / 2;
		i.forEach(({ id: t, node: n, parent: r }) => {
			e.setNode(t, n), r !== void 0 && e.setParent(t, r);
		}), a.forEach(({ edge: t, label: n }) => {
			e.setEdge(t, n);
		}), n.nodes().forEach((r) => {
			if (r === t) return;
			let i = n.node(r), a = e.node(r);
			a && i && typeof i.x == "number" && typeof i.y == "number" && (a.x = s + (i.x - l), a.y = c + (i.y - u));
		}), qr(e, n, s - l, c - u), delete o._dagreClusterSubgraph;
	}), r.forEach((t) => {
		let n = e.node(t), r = i[t];
		if (n && n.rankdir && n._dagreClusterSubgraph && r) {
			let i = n._dagreClusterSubgraph, a = n.x ?? 0, o = n.y ?? 0, s = (r.minX + r.maxX) / 2, c = (r.minY + r.maxY) / 2;
			i.nodes().forEach((n) => {
				if (n === t) return;
				let r = i.node(n), l = e.node(n);
				if (l && r && typeof r.x == "number" && typeof r.y == "number") {
					let e = r.x - s, t = r.y - c;
					l.x = a + e, l.y = o + t;
				}
			}), qr(e, i, a - s, o - c), delete n._dagreClusterSubgraph;
		}
	});
}
function qr(e, t, n, r) {
	t.edges().forEach((i) => {
		if (!e.hasEdge(i)) return;
		let a = t.edge(i), o = e.edge(i);
		o.points = a.points.map((e) => ({
			x: e.x + n,
			y: e.y + r
		})), Object.hasOwn(a, "x") && (o.x = a.x + n, o.y = a.y + r);
	});
}
function Jr(e, t, n, r = null) {
	var i, a;
	let o = n?.useDynamic !== !1, s = o && (i = r?.graph) != null ? i : null, c = o && (a = r?.rawNodes) != null ? a : null;
	t("    makeSpaceForEdgeLabels", () => ai(e)), t("    removeSelfEdges", () => mi(e)), t("    acyclic", () => cn(e, s)), t("    nestingGraph.run", () => Wn(e)), t("    rank", () => Fn(Mt(e))), t("    injectEdgeLabelProxies", () => oi(e)), t("    removeEmptyRanks", () => It(e)), t("    nestingGraph.cleanup", () => Jn(e)), t("    normalizeRanks", () => Ft(e)), t("    assignRankMinMax", () => si(e)), t("    removeEdgeLabelProxies", () => ci(e)), t("    normalize.run", () => fn(e)), t("    parentDummyChains", () => Bn(e)), t("    addBorderSegments", () => Yn(e)), t("    order", () => Sr(e, n, c)), t("    insertSelfEdges", () => hi(e)), t("    adjustCoordinateSystem", () => Qn(e)), t("    position", () => Vr(e, n.corePath)), t("    positionSelfEdges", () => gi(e));
	let l = JSON.parse(JSON.stringify(e._nodes));
	return t("    removeBorderNodes", () => pi(e)), t("    normalize.undo", () => mn(e)), t("    fixupEdgeLabelCoords", () => di(e)), t("    undoCoordinateSystem", () => $n(e)), t("    translateGraph", () => li(e)), t("    assignNodeIntersects", () => ui(e)), t("    reversePoints", () => fi(e)), t("    acyclic.undo", () => un(e)), {
		graph: e,
		rawNodes: l
	};
}
function Yr(e, t) {
	e.nodes().forEach((n) => {
		let r = e.node(n), i = t.node(n);
		r && (r.x = i.x, r.y = i.y, r.order = i.order, r.rank = i.rank, t.children(n).length && (r.width = i.width, r.height = i.height));
	}), e.edges().forEach((n) => {
		let r = e.edge(n), i = t.edge(n);
		r.points = i.points, Object.hasOwn(i, "x") && (r.x = i.x, r.y = i.y);
	}), e.graph().width = t.graph().width, e.graph().height = t.graph().height;
}
var Xr = [
	"nodesep",
	"edgesep",
	"ranksep",
	"marginx",
	"marginy"
], Zr = {
	ranksep: 50,
	edgesep: 20,
	nodesep: 50,
	rankdir: "TB",
	rankalign: "center"
}, Qr = [
	"acyclicer",
	"ranker",
	"rankdir",
	"align",
	"rankalign"
], $r = [
	"width",
	"height",
	"rank"
], ei = {
	width: 0,
	height: 0
}, ti = [
	"minlen",
	"weight",
	"width",
	"height",
	"labeloffset"
], ni = {
	minlen: 1,
	weight: 1,
	width: 0,
	height: 0,
	labeloffset: 10,
	labelpos: "r"
}, ri = ["labelpos"];
function ii(e) {
	let t = new K({
		multigraph: !0,
		compound: !0
	}), n = vi(e.graph());
	return t.setGraph(Object.assign({}, Zr, _i(n, Xr), Gt(n, Qr))), e.nodes().forEach((n) => {
		let r = _i(vi(e.node(n)), $r);
		Object.keys(ei).forEach((e) => {
			r[e] === void 0 && (r[e] = ei[e]);
		}), t.setNode(n, r);
		let i = e.parent(n);
		i !== void 0 && t.setParent(n, i);
	}), e.edges().forEach((n) => {
		let r = vi(e.edge(n));
		t.setEdge(n, Object.assign({}, ni, _i(r, ti), Gt(r, ri)));
	}), t;
}
function ai(e) {
	let t = e.graph();
	t.ranksep /= 2, e.edges().forEach((n) => {
		let r = e.edge(n);
		r.minlen *= 2, (r.labelpos ?? "r").toLowerCase() !== "c" && (t.rankdir === "TB" || t.rankdir === "BT" ? r.width += r.labeloffset : r.height += r.labeloffset);
	});
}
function oi(e) {
	e.edges().forEach((t) => {
		let n = e.edge(t);
		if (n.width && n.height) {
			let n = e.node(t.v);
			q(e, "edge-proxy", {
				rank: (e.node(t.w).rank - n.rank) / 2 + n.rank,
				e: t
			}, "_ep");
		}
	});
}
function si(e) {
	let t = 0;
	e.nodes().forEach((n) => {
		let r = e.node(n);
		r.borderTop && (r.minRank = e.node(r.borderTop).rank, r.maxRank = e.node(r.borderBottom).rank, t = Math.max(t, r.maxRank));
	}), e.graph().maxRank = t;
}
function ci(e) {
	e.nodes().forEach((t) => {
		let n = e.node(t);
		if (n.dummy === "edge-proxy") {
			let r = n;
			e.edge(r.e).labelRank = n.rank, e.removeNode(t);
		}
	});
}
function li(e) {
	let t = Infinity, n = 0, r = Infinity, i = 0, a = e.graph(), o = a.marginx || 0, s = a.marginy || 0;
	function c(e) {
		let a = e.x, o = e.y, s = e.width, c = e.height;
		t = Math.min(t, a - s / 2), n = Math.max(n, a + s / 2), r = Math.min(r, o - c / 2), i = Math.max(i, o + c / 2);
	}
	e.nodes().forEach((t) => c(e.node(t))), e.edges().forEach((t) => {
		let n = e.edge(t);
		Object.hasOwn(n, "x") && c(n);
	}), t -= o, r -= s, e.nodes().forEach((n) => {
		let i = e.node(n);
		i.x -= t, i.y -= r;
	}), e.edges().forEach((n) => {
		let i = e.edge(n);
		i.points.forEach((e) => {
			e.x -= t, e.y -= r;
		}), Object.hasOwn(i, "x") && (i.x -= t), Object.hasOwn(i, "y") && (i.y -= r);
	}), a.width = n - t + o, a.height = i - r + s;
}
function ui(e) {
	e.edges().forEach((t) => {
		if (t.v === t.w) return;
		let n = e.edge(t), r = e.node(t.v), i = e.node(t.w), a, o;
		n.points ? (a = n.points[0], o = n.points[n.points.length - 1]) : (n.points = [], a = i, o = r), n.points.unshift(Nt(r, a)), n.points.push(Nt(i, o));
	});
}
function di(e) {
	e.edges().forEach((t) => {
		let n = e.edge(t);
		if (Object.hasOwn(n, "x")) switch ((n.labelpos === "l" || n.labelpos === "r") && (n.width -= n.labeloffset), n.labelpos) {
			case "l":
				n.x -= n.width / 2 + n.labeloffset;
				break;
			case "r": n.x += n.width / 2 + n.labeloffset;
		}
	});
}
function fi(e) {
	e.edges().forEach((t) => {
		let n = e.edge(t);
		n.reversed && n.points.reverse();
	});
}
function pi(e) {
	e.nodes().forEach((t) => {
		if (e.children(t).length) {
			let n = e.node(t), r = e.node(n.borderTop), i = e.node(n.borderBottom), a = e.node(n.borderLeft[n.borderLeft.length - 1]), o = e.node(n.borderRight[n.borderRight.length - 1]);
			n.width = Math.abs(o.x - a.x), n.height = Math.abs(i.y - r.y), n.x = a.x + n.width / 2, n.y = r.y + n.height / 2;
		}
	}), e.nodes().forEach((t) => {
		e.node(t).dummy === "border" && e.removeNode(t);
	});
}
function mi(e) {
	e.edges().forEach((t) => {
		if (t.v === t.w) {
			let n = e.node(t.v);
			n.selfEdges ||= [], n.selfEdges.push({
				e: t,
				label: e.edge(t)
			}), e.removeEdge(t);
		}
	});
}
function hi(e) {
	Pt(e).forEach((t) => {
		let n = 0;
		t.forEach((t, r) => {
			let i = e.node(t);
			typeof i.rank != "number" && (i.rank = 0), i.order = r + n, (i.selfEdges || []).forEach((t) => {
				q(e, "selfedge", {
					width: t.label.width,
					height: t.label.height,
					rank: i.rank,
					order: r + ++n,
					e: t.e,
					edgeLabel: t.label
				}, "_se"), Array.isArray(t.label.points) && t.label.points.length === 7 || (t.label.points = [
					{
						x: 0,
						y: -10
					},
					{
						x: 0,
						y: -10
					},
					{
						x: 0,
						y: 0
					},
					{
						x: 0,
						y: 10
					},
					{
						x: 0,
						y: 10
					},
					{
						x: 0,
						y: 0
					},
					{
						x: 0,
						y: 0
					}
				]);
			}), delete i.selfEdges;
		});
	});
}
function gi(e) {
	e.nodes().forEach((t) => {
		let n = e.node(t), r = (e) => typeof e == "number" && isFinite(e);
		if (n.dummy === "selfedge") {
			let i = n, a = e.node(i.e.v), o = r(a?.x) ? a.x : 0, s = r(a?.y) ? a.y : 0, c = r(a?.width) ? a.width : 0, l = r(a?.height) ? a.height : 0, u = r(n.x) ? n.x : o, d = r(n.y) ? n.y : s, f = c / 2, p = l / 2;
			i.edgeLabel.points = [
				{
					x: u + f,
					y: d - p
				},
				{
					x: u + f,
					y: d - p
				},
				{
					x: u,
					y: d
				},
				{
					x: u - f,
					y: d + p
				},
				{
					x: u - f,
					y: d + p
				},
				{
					x: u,
					y: d
				},
				{
					x: u,
					y: d
				}
			], i.edgeLabel.x = u, i.edgeLabel.y = d, e.setEdge(i.e, i.edgeLabel), e.removeNode(t);
		} else n && Array.isArray(n.selfEdges) && n.selfEdges.forEach((e) => {
			if (!Array.isArray(e.label.points) || e.label.points.length !== 7) {
				let t = r(n.x) ? n.x : 0, i = r(n.y) ? n.y : 0, a = r(n.width) ? n.width : 0, o = r(n.height) ? n.height : 0, s = a / 2, c = o / 2;
				e.label.points = [
					{
						x: t + s,
						y: i - c
					},
					{
						x: t + s,
						y: i - c
					},
					{
						x: t,
						y: i
					},
					{
						x: t - s,
						y: i + c
					},
					{
						x: t - s,
						y: i + c
					},
					{
						x: t,
						y: i
					},
					{
						x: t,
						y: i
					}
				];
			}
		});
	});
}
function _i(e, t) {
	return Kt(Gt(e, t), Number);
}
function vi(e) {
	let t = {};
	return e && Object.entries(e).forEach(([e, n]) => {
		typeof e == "string" && (e = e.toLowerCase()), t[e] = n;
	}), t;
}
// web/graph-layout.ts
var yi = 7.4, bi = 46;
function xi(e) {
	return e.length > bi ? `${e.slice(0, 45)}…` : e;
}
function Si(e, t, n) {
	for (let r of e) {
		n.push({
			text: xi(r.label),
			full: r.label,
			depth: t,
			kind: "step",
			path: r.path
		});
		for (let e of r.blocks) {
			let r = e.name !== "steps", i = e.options.predicate, a = typeof i == "string" ? `${e.name}: ${i}` : e.name;
			r && n.push({
				text: xi(a),
				full: a,
				depth: t + 1,
				kind: "block",
				path: void 0
			}), Si(e.steps, t + (r ? 2 : 1), n);
		}
	}
}
function Ci(e) {
	let t = [];
	return Si(e.steps, 0, t), t;
}
function Q(e, t = 0) {
	return Math.min(e.length, bi) * yi + t * 12;
}
function wi(e) {
	let t = new qe.Graph({ multigraph: !0 });
	t.setGraph({
		rankdir: "TB",
		nodesep: 28,
		ranksep: 48,
		marginx: 12,
		marginy: 12
	}), t.setDefaultEdgeLabel(() => ({}));
	let n = /* @__PURE__ */ new Map();
	for (let r of e.routes) {
		let e = Ci(r), i = Math.max(Q(r.id) + 80, Q(r.from), Q(r.tool ? `tool ${r.tool.name}` : "")), a = Math.max(0, ...e.map((e) => Q(e.text, e.depth) + 64)), o = 2 + (r.tool === void 0 ? 0 : 1), s = `route:${r.id}`;
		n.set(s, {
			route: r,
			lines: e
		}), t.setNode(s, {
			width: Math.max(i, a) + 20,
			height: (o + e.length) * 16 + 20
		});
	}
	for (let n of e.endpoints) t.setNode(n.id, {
		width: Q(n.uri) + 20,
		height: 36
	});
	e.edges.forEach((e, n) => {
		t.hasNode(e.from) && t.hasNode(e.to) && t.setEdge(e.from, e.to, {}, `e${n}`);
	}), Wr(t);
	let r = [];
	for (let e of t.nodes()) {
		let i = t.node(e), a = {
			x: i.x - i.width / 2,
			y: i.y - i.height / 2,
			width: i.width,
			height: i.height
		}, o = n.get(e);
		o === void 0 ? r.push({
			kind: "endpoint",
			id: e,
			uri: e.slice(9),
			...a
		}) : r.push({
			kind: "route",
			id: e,
			route: o.route,
			lines: o.lines,
			...a
		});
	}
	let i = [];
	e.edges.forEach((e, n) => {
		let r = t.edge({
			v: e.from,
			w: e.to,
			name: `e${n}`
		});
		r?.points !== void 0 && i.push({
			...e,
			points: r.points
		});
	});
	let a = t.graph();
	return {
		width: a.width ?? 0,
		height: a.height ?? 0,
		nodes: r,
		edges: i
	};
}
// web/graph-view.ts
var $ = 10;
function Ti(e) {
	return e.points.map((e, t) => `${t === 0 ? "M" : "L"}${e.x.toFixed(1)},${e.y.toFixed(1)}`).join(" ");
}
function Ei(e) {
	return e === void 0 ? "" : e.failures > 0 ? `${e.calls} ✕${e.failures}` : String(e.calls);
}
function Di(e) {
	let { node: t, counters: n } = e, r = t.route, i = new Map((n?.steps ?? []).map((e) => [e.path, e])), a = n?.state ?? r.state, o = 2 + (r.tool === void 0 ? 0 : 1), s = n === void 0 ? "" : `${n.exchanges} ex · ${n.failures} failed · ${n.inflight} in flight`;
	return H`<g
    class=${`route-node state-${a}${e.selected ? " selected" : ""}`}
    transform=${`translate(${t.x},${t.y})`}
    role="button"
    tabindex="0"
    aria-label=${`route ${r.id}, ${a}, from ${r.from}${r.tool ? `, tool ${r.tool.name}` : ""}. ${s}`}
    onClick=${() => e.onSelect(r.id)}
    onKeyDown=${(t) => (t.key === "Enter" || t.key === " ") && e.onSelect(r.id)}
  >
    <rect class="box" width=${t.width} height=${t.height} rx="6" />
    <text class="route-id" x=${$} y=${22}>${r.id}</text>
    <text class="route-state" x=${t.width - $} y=${22} text-anchor="end">${a}</text>
    <text class="route-from" x=${$} y=${38}>${xi(r.from)}<title>${r.from}</title></text>
    ${r.tool === void 0 ? null : H`<text class="route-tool" x=${$} y=${54}>tool ${r.tool.name}</text>`}
    ${t.lines.map((e, n) => {
		let r = 22 + 16 * (o + n), a = e.path === void 0 ? void 0 : i.get(e.path);
		return H`<g key=${n} class=${`line ${e.kind}`}>
        <title>${e.full}</title>
        <text x=${$ + e.depth * 12} y=${r}>${e.text}</text>
        ${a === void 0 ? null : H`<text class=${`step-count${a.failures > 0 ? " failed" : ""}`} x=${t.width - $} y=${r} text-anchor="end">${Ei(a)}</text>`}
      </g>`;
	})}
  </g>`;
}
function Oi(e) {
	let t = Se(() => wi(e.graph), [e.graph]), n = new Map(e.counters.map((e) => [e.routeId, e]));
	return H`<svg
    class="graph"
    role="group"
    aria-label=${`route graph: ${e.graph.routes.length} routes, ${e.graph.endpoints.length} endpoints, ${e.graph.edges.length} connections`}
    viewBox=${`0 0 ${Math.max(t.width, 10)} ${Math.max(t.height, 10)}`}
    width=${t.width}
    height=${t.height}
  >
    <defs>
      <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
        <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
      </marker>
    </defs>
    ${t.edges.map((e, t) => H`<g key=${`edge${t}`} class=${`edge ${e.kind}`}>
        <title>${e.label}</title>
        <path d=${Ti(e)} marker-end="url(#arrow)" />
      </g>`)}
    ${t.nodes.map((t) => t.kind === "route" ? H`<${Di} key=${t.id} node=${t} counters=${n.get(t.route.id)} selected=${e.selected === t.route.id} onSelect=${e.onSelect} />` : H`<g key=${t.id} class="endpoint-node" transform=${`translate(${t.x},${t.y})`} role="img" aria-label=${`endpoint ${t.uri}`}>
            <rect width=${t.width} height=${t.height} rx=${t.height / 2} />
            <text x=${t.width / 2} y=${t.height / 2 + 4} text-anchor="middle">${t.uri}</text>
          </g>`)}
  </svg>`;
}
// web/routes-table.ts
function ki(e) {
	let t = new Map(e.counters.map((e) => [e.routeId, e]));
	return H`<table class="routes" aria-label="routes and their counters">
    <thead>
      <tr><th scope="col">route</th><th scope="col">state</th><th scope="col">exchanges</th><th scope="col">failures</th><th scope="col">in flight</th><th scope="col">p50</th><th scope="col">p99</th><th scope="col"><span class="visually-hidden">action</span></th></tr>
    </thead>
    <tbody>
      ${e.routes.map((n) => {
		let r = t.get(n.id), i = r?.state ?? n.state, a = i === "started" ? "stop" : "start";
		return H`<tr key=${n.id} data-route=${n.id}>
          <th scope="row"><button class="link" onClick=${() => e.onSelect(n.id)}>${n.id}</button>${n.tool ? H` <span class="badge">tool ${n.tool.name}</span>` : null}</th>
          <td class=${`state state-${i}`}>${i}</td>
          <td class="exchanges">${r?.exchanges ?? 0}</td>
          <td class=${`failures${(r?.failures ?? 0) > 0 ? " failed" : ""}`}>${r?.failures ?? 0}</td>
          <td class="inflight">${r?.inflight ?? 0}</td>
          <td>${V(r?.p50)}</td>
          <td>${V(r?.p99)}</td>
          <td><button class=${`action ${a}`} disabled=${e.busy === n.id} aria-label=${`${a} route ${n.id}`} onClick=${() => e.onAction(n.id, a)}>${a}</button></td>
        </tr>`;
	})}
    </tbody>
  </table>`;
}
function Ai(e) {
	let { route: t } = e;
	return H`<section class="route-details" aria-label=${`route ${t.id}`}>
    <h3>${t.id}</h3>
    <p>from <code>${t.from}</code>${t.description ? H` — ${t.description}` : null}</p>
    ${t.tool === void 0 ? null : H`<div class="tool">
            <p><span class="badge">tool ${t.tool.name}</span> ${t.tool.description}</p>
            <details open>
              <summary>input schema</summary>
              <pre>${JSON.stringify(t.tool.inputSchema, null, 2)}</pre>
            </details>
          </div>`}
  </section>`;
}
// web/timeline-view.ts
function ji(e) {
	let { snapshot: t } = e;
	if (t === void 0) return null;
	let n = Object.entries(t.headers);
	return H`<details class="snapshot">
    <summary>${e.title} <span class="muted">(${t.bodyType}${t.truncated ? ", cut" : ""})</span></summary>
    <pre class="body">${t.body}</pre>
    ${n.length === 0 ? null : H`<dl class="headers">${n.map(([e, t]) => H`<dt>${e}</dt><dd>${t}</dd>`)}</dl>`}
  </details>`;
}
function Mi(e) {
	let { record: t } = e, n = Math.max(t.durationMs ?? 0, ...t.steps.map((e) => e.startMs + (e.durationMs ?? 0)), .001);
	return H`<section class="timeline" aria-label=${`exchange ${t.id}`}>
    <h3>exchange <code>${t.id}</code></h3>
    <p>route <strong>${t.routeId}</strong> · <span class=${`status-${t.status}`}>${t.status}</span> · ${V(t.durationMs)}${t.error ? H` · <span class="error">${t.error}</span>` : null}</p>
    <${ji} title="received" snapshot=${t.input} />
    <ol class="steps" aria-label="steps">
      ${t.steps.map((e, t) => {
		let r = e.startMs / n * 100, i = Math.max((e.durationMs ?? 0) / n * 100, .5);
		return H`<li key=${t} class=${`step status-${e.status}`}>
          <div class="step-head">
            <span class="step-route">${e.routeId}</span>
            <span class="step-label">${e.path}</span>
            <span class="step-duration">${V(e.durationMs)}</span>
          </div>
          <div class="bar-track" aria-hidden="true"><div class="bar" style=${{
			left: `${r}%`,
			width: `${i}%`
		}}></div></div>
          ${e.error ? H`<p class="error">${e.error}</p>` : null}
          <${ji} title="after this step" snapshot=${e.after} />
        </li>`;
	})}
    </ol>
    ${t.droppedSteps > 0 ? H`<p class="muted">${t.droppedSteps} more steps not kept</p>` : null}
    <${ji} title="result" snapshot=${t.output} />
  </section>`;
}
// web/app.ts
var Ni = {
	version: -1,
	counters: [],
	exchanges: [],
	agentRuns: []
};
function Pi() {
	let [e, t] = z(void 0), [n, r] = z(Ni), [i, a] = z("connecting"), [o, s] = z(void 0), [c, l] = z(void 0), [u, d] = z(void 0), [f, p] = z(""), [m, h] = z(void 0), [g, _] = z(void 0), [v, y] = z(void 0), b = Ce(() => {
		W("/api/graph").then(t, (e) => s(e.message));
	}, []);
	xe(() => {
		b();
		let e = Ve();
		return e.addEventListener("open", () => a("live")), e.addEventListener("error", () => a("disconnected")), e.addEventListener("snapshot", (e) => {
			r(JSON.parse(e.data)), a("live");
		}), () => e.close();
	}, [b]);
	let x = n.counters.map((e) => e.routeId).join("\n");
	xe(() => {
		e !== void 0 && n.version >= 0 && x !== e.routes.map((e) => e.id).join("\n") && b();
	}, [x]), xe(() => {
		g !== void 0 && g.status === "running" && W(`/api/exchanges/${encodeURIComponent(g.id)}`).then(_, () => {}), v !== void 0 && v.status === "running" && W(`/api/agent-runs/${encodeURIComponent(v.id)}`).then(y, () => {}), f !== "" && S(f);
	}, [n.version]);
	let S = (e) => {
		if (p(e), e === "") return h(void 0);
		W(`/api/exchanges?q=${encodeURIComponent(e)}`).then((e) => h(e.exchanges), (e) => s(e.message));
	}, C = (e) => W(`/api/exchanges/${encodeURIComponent(e)}`).then(_, (e) => s(e.message)), w = (e) => W(`/api/agent-runs/${encodeURIComponent(e)}`).then(y, (e) => s(e.message)), T = (e, t) => {
		d(e), Be(`/api/routes/${encodeURIComponent(e)}/${t}`).then(() => s(void 0), (e) => s(e.message)).finally(() => {
			d(void 0), b();
		});
	}, E = e?.routes.find((e) => e.id === c);
	return H`<header class="top">
      <h1>routekit console</h1>
      <p class="connection" role="status" aria-live="polite">events: <span class=${`connection-${i}`}>${i}</span></p>
    </header>
    ${o === void 0 ? null : H`<p class="problem" role="alert">${o} <button onClick=${() => s(void 0)}>dismiss</button></p>`}
    <main>
      <section class="panel graph-panel" aria-labelledby="graph-title">
        <h2 id="graph-title">Route graph</h2>
        <div class="graph-scroll">${e === void 0 ? H`<p>loading…</p>` : H`<${Oi} graph=${e} counters=${n.counters} selected=${c} onSelect=${l} />`}</div>
        ${e !== void 0 && e.tools.length > 0 ? H`<p class="muted">tools without a route: ${e.tools.map((e) => e.name).join(", ")}</p>` : null}
      </section>
      <section class="panel routes-panel" aria-labelledby="routes-title">
        <h2 id="routes-title">Routes</h2>
        ${e === void 0 ? null : H`<${ki} routes=${e.routes} counters=${n.counters} busy=${u} onAction=${T} onSelect=${l} />`}
        ${E === void 0 ? null : H`<${Ai} route=${E} counters=${n.counters.find((e) => e.routeId === E.id)} />`}
      </section>
      <section class="panel exchanges-panel" aria-labelledby="exchanges-title">
        <h2 id="exchanges-title">Recent exchanges</h2>
        <${He} exchanges=${m ?? n.exchanges} query=${f} selected=${g?.id} onQuery=${S} onOpen=${C} />
        ${g === void 0 ? null : H`<${Mi} record=${g} />`}
      </section>
      <section class="panel runs-panel" aria-labelledby="runs-title">
        <h2 id="runs-title">Agent runs</h2>
        <${Fe} runs=${n.agentRuns} selected=${v?.id} onOpen=${w} />
        ${v === void 0 ? null : H`<${Le} run=${v} />`}
      </section>
    </main>`;
}
// web/main.ts
var Fi = document.getElementById("app");
Fi !== null && F(H`<${Pi} />`, Fi);
