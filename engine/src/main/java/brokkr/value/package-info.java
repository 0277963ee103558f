/**
 * The persistent, Python-like value model that every world, tool argument and tool result is made of:
 * {@link brokkr.value.Value}, sealed over {@link brokkr.value.PyStr}, {@link brokkr.value.PyInt} (arbitrary
 * precision), {@link brokkr.value.PyFloat}, {@link brokkr.value.PyBool}, {@link brokkr.value.PyNone},
 * {@link brokkr.value.PyList} and {@link brokkr.value.PyDict} (string keys, insertion order). The variants keep
 * the distinctions transcribed Python code and upstream's hashes depend on (int, float and bool apart, dict order
 * visible); containers are persistent, so forking a world is keeping a reference and an update shares every
 * untouched node. {@link brokkr.value.Json} reads JSON text into values as Python's {@code json.loads} would.
 * The package depends on no other Brokkr package: Python's operations on values ({@code json.dumps},
 * {@code repr}, {@code ==}, arithmetic) live above it, in {@code brokkr.python}.
 */
package brokkr.value;
