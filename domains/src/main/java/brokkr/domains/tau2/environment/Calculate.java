package brokkr.domains.tau2.environment;

import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyFloats;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * tau2's {@code calculate(expression)} tool (src/tau2/environment/toolkit.py {@code GenericToolKit.calculate},
 * repeated verbatim in several domain toolkits):
 *
 * <pre>
 * if not all(char in "0123456789+-*&#47;(). " for char in expression): raise ValueError("Invalid characters in expression")
 * return str(round(float(eval(expression, {"__builtins__": None}, {})), 2))
 * </pre>
 *
 * The character filter leaves a small Python expression language (numbers, + - * / ** //, unary signs,
 * parentheses, calls of a parenthesised value) that is evaluated here with Python's int/float rules.
 * Syntax-error texts are approximations of CPython's (not exercised by the oracle corpora).
 */
public final class Calculate {
    private Calculate() {}

    private static final String ALLOWED = "0123456789+-*/(). ";

    public static String calculate(Value expression) {
        // all(char in ALLOWED for char in expression): iterates the argument (a list's items, a dict's keys)
        for (Value ch : PyBuiltins.iterate(expression)) {
            if (!(ch instanceof PyStr s)) {
                throw PyException.typeError("'in <string>' requires string as left operand, not " + ch.typeName());
            }
            if (!ALLOWED.contains(s.value())) throw PyException.valueError("Invalid characters in expression");
        }
        if (!(expression instanceof PyStr src)) {
            throw PyException.typeError("eval() arg 1 must be a string, bytes or code object");
        }
        Value result;
        try {
            result = new Parser(src.value()).parseAll();
        } catch (PyException e) {
            if (!e.pyType().equals("SyntaxError")) throw e;
            // The tokenizer's bracket errors win over the parser's: it reads ahead to the end of the input.
            int open = 0;
            for (char ch : src.value().toCharArray()) {
                if (ch == '(') open++;
                else if (ch == ')' && --open < 0) throw syntax("unmatched ')'", 1);
            }
            if (open > 0) throw syntax("'(' was never closed", 1);
            throw e;
        }
        double f = PyBuiltins.toDouble(numeric(result, "float"));
        return PyFloats.repr(PyBuiltins.round(f, 2));
    }

    /** The empty tuple, the only non-number value this language can build ({@code ()}). */
    private static final Value EMPTY_TUPLE = brokkr.value.PyList.empty();

    private static Value numeric(Value v, String op) {
        if (v == EMPTY_TUPLE) {
            if (op.equals("float")) {
                throw PyException.typeError("float() argument must be a string or a real number, not 'tuple'");
            }
        }
        return v;
    }

    private static String typeName(Value v) {
        return v == EMPTY_TUPLE ? "tuple" : v.typeName();
    }

    private static PyException syntax(String msg, int line) {
        return new PyException("SyntaxError", msg + " (<string>, line " + line + ")");
    }

    /** Recursive-descent parser/evaluator over Python's grammar restricted to the allowed characters. */
    private static final class Parser {
        private final String s;
        private int pos;
        private int depth;
        /** Parentheses opened and not yet closed: at the end of input the tokenizer reports the first. */
        private int open;

        Parser(String s) {
            // builtin eval() strips leading spaces and tabs of a string source
            int i = 0;
            while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
            this.s = s.substring(i);
        }

        Value parseAll() {
            skip();
            if (pos >= s.length()) throw syntax("invalid syntax", 0); // eval("") reports line 0
            Value v = expr();
            skip();
            if (pos < s.length()) {
                if (s.charAt(pos) == ')') throw syntax("unmatched ')'", 1);
                throw syntax("invalid syntax", 1);
            }
            return v;
        }

        private void skip() {
            while (pos < s.length() && s.charAt(pos) == ' ') pos++;
        }

        private boolean peek(String tok) {
            skip();
            return s.startsWith(tok, pos);
        }

        // expr: term (('+'|'-') term)*
        private Value expr() {
            Value v = term();
            while (true) {
                skip();
                if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                    char op = s.charAt(pos++);
                    Value r = term();
                    v = op == '+' ? add(v, r) : sub(v, r);
                } else {
                    return v;
                }
            }
        }

        // term: factor (('*'|'/'|'//') factor)*
        private Value term() {
            Value v = factor();
            while (true) {
                skip();
                if (s.startsWith("**", pos)) return v;
                if (s.startsWith("//", pos)) {
                    pos += 2;
                    v = floordiv(v, factor());
                } else if (pos < s.length() && s.charAt(pos) == '*') {
                    pos++;
                    v = mul(v, factor());
                } else if (pos < s.length() && s.charAt(pos) == '/') {
                    pos++;
                    v = truediv(v, factor());
                } else return v;
            }
        }

        // factor: ('+'|'-') factor | power
        private Value factor() {
            skip();
            if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                char op = s.charAt(pos++);
                if (++depth > 2000)
                    throw new PyException("RecursionError", "maximum recursion depth exceeded during compilation");
                Value v = factor();
                depth--;
                return op == '-' ? neg(v) : pos(v);
            }
            return power();
        }

        // power: primary ['**' factor]
        private Value power() {
            Value base = primary();
            skip();
            if (s.startsWith("**", pos)) {
                pos += 2;
                Value exp = factor();
                return pow(base, exp);
            }
            return base;
        }

        // primary: atom ('(' [expr] ')')*
        private Value primary() {
            Value v = atom();
            while (peek("(")) {
                pos++;
                open++;
                skip();
                if (pos < s.length() && s.charAt(pos) != ')') expr();
                expect(')');
                open--;
                throw PyException.typeError("'" + typeName(v) + "' object is not callable");
            }
            return v;
        }

        private void expect(char c) {
            skip();
            if (pos >= s.length()) throw syntax("'(' was never closed", 1);
            if (s.charAt(pos) != c) {
                char d = s.charAt(pos);
                // inside brackets, two juxtaposed expressions get the PEG parser's comma hint
                if (Character.isDigit(d) || d == '.') throw syntax("invalid syntax. Perhaps you forgot a comma?", 1);
                throw syntax("invalid syntax", 1);
            }
            pos++;
        }

        private Value atom() {
            skip();
            if (pos >= s.length()) throw syntax(open > 0 ? "'(' was never closed" : "invalid syntax", 1);
            char c = s.charAt(pos);
            if (c == '(') {
                pos++;
                open++;
                skip();
                if (pos < s.length() && s.charAt(pos) == ')') {
                    pos++;
                    open--;
                    return EMPTY_TUPLE;
                }
                if (++depth > 200) throw syntax("too many nested parentheses", 1);
                Value v = expr();
                depth--;
                expect(')');
                open--;
                return v;
            }
            if (Character.isDigit(c) || (c == '.' && pos + 1 < s.length() && Character.isDigit(s.charAt(pos + 1)))) {
                return number();
            }
            if (c == ')') throw syntax("unmatched ')'", 1);
            throw syntax("invalid syntax", 1);
        }

        private Value number() {
            int start = pos;
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) pos++;
            boolean isFloat = false;
            if (pos < s.length() && s.charAt(pos) == '.') {
                isFloat = true;
                pos++;
                while (pos < s.length() && Character.isDigit(s.charAt(pos))) pos++;
            }
            String text = s.substring(start, pos);
            if (pos < s.length() && (Character.isDigit(s.charAt(pos)) || s.charAt(pos) == '.')) {
                throw syntax("invalid syntax", 1);
            }
            if (isFloat) return new PyFloat(Double.parseDouble(text));
            if (text.length() > 1 && text.charAt(0) == '0' && !text.chars().allMatch(ch -> ch == '0')) {
                throw syntax(
                        "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
                        1);
            }
            return new PyInt(new BigInteger(text));
        }
    }

    private static boolean isTuple(Value v) {
        return v == EMPTY_TUPLE;
    }

    private static PyException unsupported(String op, Value a, Value b) {
        return PyException.typeError(
                "unsupported operand type(s) for " + op + ": '" + typeName(a) + "' and '" + typeName(b) + "'");
    }

    private static Value add(Value a, Value b) {
        if (isTuple(a) && isTuple(b)) return EMPTY_TUPLE;
        if (isTuple(a) || isTuple(b)) {
            if (isTuple(a))
                throw PyException.typeError("can only concatenate tuple (not \"" + typeName(b) + "\") to tuple");
            throw unsupported("+", a, b);
        }
        if (a instanceof PyInt x && b instanceof PyInt y)
            return new PyInt(x.value().add(y.value()));
        return new PyFloat(PyBuiltins.toDouble(a) + PyBuiltins.toDouble(b));
    }

    private static Value sub(Value a, Value b) {
        if (isTuple(a) || isTuple(b)) throw unsupported("-", a, b);
        if (a instanceof PyInt x && b instanceof PyInt y)
            return new PyInt(x.value().subtract(y.value()));
        return new PyFloat(PyBuiltins.toDouble(a) - PyBuiltins.toDouble(b));
    }

    private static Value mul(Value a, Value b) {
        if (isTuple(a) && b instanceof PyInt) return EMPTY_TUPLE;
        if (isTuple(b) && a instanceof PyInt) return EMPTY_TUPLE;
        if (isTuple(a) || isTuple(b)) {
            if (isTuple(a) || isTuple(b))
                throw PyException.typeError(
                        "can't multiply sequence by non-int of type '" + typeName(isTuple(a) ? b : a) + "'");
        }
        if (a instanceof PyInt x && b instanceof PyInt y)
            return new PyInt(x.value().multiply(y.value()));
        return new PyFloat(PyBuiltins.toDouble(a) * PyBuiltins.toDouble(b));
    }

    private static Value truediv(Value a, Value b) {
        if (isTuple(a) || isTuple(b)) throw unsupported("/", a, b);
        if (a instanceof PyInt x && b instanceof PyInt y) {
            if (y.value().signum() == 0) throw new PyException("ZeroDivisionError", "division by zero");
            // int / int is correctly rounded in CPython (long_true_divide)
            if (x.value().bitLength() <= 53 && y.value().bitLength() <= 53) {
                return new PyFloat(x.value().doubleValue() / y.value().doubleValue());
            }
            BigDecimal q = new BigDecimal(x.value()).divide(new BigDecimal(y.value()), new MathContext(60));
            double d = q.doubleValue();
            if (Double.isInfinite(d))
                throw new PyException("OverflowError", "integer division result too large for a float");
            return new PyFloat(d);
        }
        double y = PyBuiltins.toDouble(b);
        if (y == 0.0) throw new PyException("ZeroDivisionError", "float division by zero");
        return new PyFloat(PyBuiltins.toDouble(a) / y);
    }

    private static Value floordiv(Value a, Value b) {
        if (isTuple(a) || isTuple(b)) throw unsupported("//", a, b);
        if (a instanceof PyInt x && b instanceof PyInt y) {
            if (y.value().signum() == 0)
                throw new PyException("ZeroDivisionError", "integer division or modulo by zero");
            BigInteger[] qr = x.value().divideAndRemainder(y.value());
            BigInteger q = qr[0];
            if (qr[1].signum() != 0 && (qr[1].signum() != y.value().signum())) q = q.subtract(BigInteger.ONE);
            return new PyInt(q);
        }
        double vx = PyBuiltins.toDouble(a), wx = PyBuiltins.toDouble(b);
        if (wx == 0.0) throw new PyException("ZeroDivisionError", "float floor division by zero");
        // CPython float_floor_div (_float_div_mod)
        double mod = vx % wx;
        double div = (vx - mod) / wx;
        if (mod != 0.0) {
            if ((wx < 0) != (mod < 0)) div -= 1.0;
        }
        double floordiv;
        if (div != 0.0) {
            floordiv = Math.floor(div);
            if (div - floordiv > 0.5) floordiv += 1.0;
        } else {
            floordiv = Math.copySign(0.0, vx / wx);
        }
        return new PyFloat(floordiv);
    }

    private static Value neg(Value v) {
        if (isTuple(v)) throw PyException.typeError("bad operand type for unary -: 'tuple'");
        if (v instanceof PyInt i) return new PyInt(i.value().negate());
        return new PyFloat(-PyBuiltins.toDouble(v));
    }

    private static Value pos(Value v) {
        if (isTuple(v)) throw PyException.typeError("bad operand type for unary +: 'tuple'");
        return v;
    }

    private static Value pow(Value a, Value b) {
        if (isTuple(a) || isTuple(b)) {
            throw PyException.typeError(
                    "unsupported operand type(s) for ** or pow(): '" + typeName(a) + "' and '" + typeName(b) + "'");
        }
        if (a instanceof PyInt x && b instanceof PyInt y) {
            if (y.value().signum() >= 0) {
                BigInteger base = x.value();
                if (base.abs().compareTo(BigInteger.ONE) <= 0) {
                    if (base.signum() == 0) return PyInt.of(y.value().signum() == 0 ? 1 : 0);
                    if (base.equals(BigInteger.ONE)) return PyInt.of(1);
                    return PyInt.of(y.value().testBit(0) ? -1 : 1);
                }
                if (y.value().bitLength() > 31
                        || (long) base.bitLength() * y.value().intValue() > 64_000_000L) {
                    throw new PyException("MemoryError", "");
                }
                return new PyInt(base.pow(y.value().intValue()));
            }
            if (x.value().signum() == 0)
                throw new PyException("ZeroDivisionError", "0.0 cannot be raised to a negative power");
            return floatPow(PyBuiltins.toDouble(a), PyBuiltins.toDouble(b));
        }
        return floatPow(PyBuiltins.toDouble(a), PyBuiltins.toDouble(b));
    }

    /** CPython {@code float_pow} for finite operands. */
    private static Value floatPow(double x, double y) {
        if (y == 0.0) return new PyFloat(1.0);
        if (x == 0.0) {
            if (y < 0.0) throw new PyException("ZeroDivisionError", "0.0 cannot be raised to a negative power");
            return new PyFloat(x);
        }
        if (x < 0.0 && y != Math.floor(y)) {
            // CPython returns a complex number here; float() of it fails.
            throw PyException.typeError("float() argument must be a string or a real number, not 'complex'");
        }
        double r = Math.pow(x, y);
        if (Double.isInfinite(r)) throw new PyException("OverflowError", "(34, 'Numerical result out of range')");
        return new PyFloat(r);
    }
}
