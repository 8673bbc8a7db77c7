package lab.common;

/** A request the contract refuses: 400 for bad input, 404 for a missing player. */
public final class InvalidRequest extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;

    public InvalidRequest(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
