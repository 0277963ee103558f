package brokkr.kernel;

import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.CodeElement;
import java.lang.classfile.Opcode;
import java.lang.classfile.constantpool.MethodRefEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.instruction.ConstantInstruction;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDesc;
import java.lang.constant.DirectMethodHandleDesc;
import java.lang.constant.DynamicCallSiteDesc;
import java.lang.constant.MethodHandleDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.Objects;

/**
 * Keeps cell code from ending the JVM that holds the session. JDK 25 has no SecurityManager to veto an
 * exit, so the guard works on the bytecode JShell loads for each snippet ({@link CapturingExecutionControl}):
 * every call of {@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt} in it (direct calls,
 * method references, method handle constants; in methods and classes declared in cells too) is redirected
 * to a method here that throws {@link ExitRefused} instead. Code that is not cell code (libraries, the
 * JDK, reflection, method handles looked up at run time) is untouched: its exit still ends the JVM.
 */
public final class ExitGuard {
    private ExitGuard() {}

    private static final ClassDesc CD_SYSTEM = ClassDesc.of("java.lang.System");
    private static final ClassDesc CD_RUNTIME = ClassDesc.of("java.lang.Runtime");
    private static final ClassDesc CD_GUARD = ClassDesc.of(ExitGuard.class.getName());
    private static final MethodTypeDesc STATUS = MethodTypeDesc.of(CD_void, CD_int);
    private static final MethodTypeDesc RUNTIME_STATUS = MethodTypeDesc.of(CD_void, CD_RUNTIME, CD_int);

    /** What cell code's {@code System.exit(status)} calls. */
    public static void exit(int status) {
        throw new ExitRefused("System.exit(" + status + ")");
    }

    /** What cell code's {@code runtime.exit(status)} calls. */
    public static void exit(Runtime runtime, int status) {
        Objects.requireNonNull(runtime);
        throw new ExitRefused("Runtime.exit(" + status + ")");
    }

    /** What cell code's {@code runtime.halt(status)} calls. */
    public static void halt(Runtime runtime, int status) {
        Objects.requireNonNull(runtime);
        throw new ExitRefused("Runtime.halt(" + status + ")");
    }

    /** A class file with its exit calls redirected here; the very same array when it has none. */
    static byte[] redirect(byte[] classFile) {
        return redirect(classFile, ClassHierarchyResolver.defaultResolver());
    }

    /**
     * As {@link #redirect(byte[])}; {@code classes} resolves the classes the rewritten code's stack maps
     * may have to merge (snippet classes are no resources of any class loader).
     */
    static byte[] redirect(byte[] classFile, ClassHierarchyResolver classes) {
        ClassFile cf = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(classes));
        ClassModel model = cf.parse(classFile);
        if (!mentionsExit(model)) return classFile;
        return cf.transformClass(model, ClassTransform.transformingMethodBodies(ExitGuard::rewrite));
    }

    /** Every form of an exit call (invoke, method handle) refers to a method entry of the constant pool. */
    private static boolean mentionsExit(ClassModel model) {
        for (PoolEntry e : model.constantPool()) {
            if (e instanceof MethodRefEntry m
                    && replacement(m.owner().asSymbol(), m.name().stringValue(), m.typeSymbol()) != null) {
                return true;
            }
        }
        return false;
    }

    private static void rewrite(CodeBuilder code, CodeElement element) {
        switch (element) {
            case InvokeInstruction i
            when (i.opcode() == Opcode.INVOKESTATIC || i.opcode() == Opcode.INVOKEVIRTUAL)
                    && replacement(i.owner().asSymbol(), i.name().stringValue(), i.typeSymbol())
                            instanceof DirectMethodHandleDesc r ->
                code.invokestatic(r.owner(), r.methodName(), r.invocationType());
            case InvokeDynamicInstruction indy -> {
                DynamicCallSiteDesc site = indy.invokedynamic().asSymbol();
                ConstantDesc[] args = site.bootstrapArgs();
                boolean changed = false;
                for (int k = 0; k < args.length; k++) {
                    if (args[k] instanceof DirectMethodHandleDesc h && replacement(h) != null) {
                        args[k] = replacement(h);
                        changed = true;
                    }
                }
                code.with(
                        changed
                                ? InvokeDynamicInstruction.of(
                                        code.constantPool().invokeDynamicEntry(site.withArgs(args)))
                                : indy);
            }
            case ConstantInstruction.LoadConstantInstruction ldc
            when ldc.constantValue() instanceof DirectMethodHandleDesc h && replacement(h) != null ->
                code.ldc(replacement(h));
            default -> code.with(element);
        }
    }

    private static DirectMethodHandleDesc replacement(DirectMethodHandleDesc h) {
        return switch (h.kind()) {
            case STATIC, VIRTUAL ->
                replacement(h.owner(), h.methodName(), MethodTypeDesc.ofDescriptor(h.lookupDescriptor()));
            default -> null;
        };
    }

    /** The guard method standing in for {@code owner.name(type)}, or null when that is no exit. */
    private static DirectMethodHandleDesc replacement(ClassDesc owner, String name, MethodTypeDesc type) {
        if (!type.equals(STATUS)) return null;
        if (owner.equals(CD_SYSTEM) && name.equals("exit")) {
            return MethodHandleDesc.ofMethod(DirectMethodHandleDesc.Kind.STATIC, CD_GUARD, "exit", STATUS);
        }
        if (owner.equals(CD_RUNTIME) && (name.equals("exit") || name.equals("halt"))) {
            return MethodHandleDesc.ofMethod(DirectMethodHandleDesc.Kind.STATIC, CD_GUARD, name, RUNTIME_STATUS);
        }
        return null;
    }
}
