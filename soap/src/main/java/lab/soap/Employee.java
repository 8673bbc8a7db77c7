package lab.soap;

import org.apache.axis.Constants;
import org.apache.axis.description.TypeDesc;

/**
 * Infosys's Employee, which echoEmployees returns as it came: nine simple-typed fields. The numbers
 * and the flag are objects, so that a field the request left out reads as null (the echo refuses it).
 */
public class Employee {
    private static final TypeDesc TYPE_DESC = BeanTypes.describe(Employee.class, "Employee", new Object[][] {
        {"id", Constants.XSD_INT}, {"firstName", Constants.XSD_STRING}, {"lastName", Constants.XSD_STRING},
        {"email", Constants.XSD_STRING}, {"department", Constants.XSD_STRING}, {"title", Constants.XSD_STRING},
        {"age", Constants.XSD_INT}, {"salary", Constants.XSD_DOUBLE}, {"fullTime", Constants.XSD_BOOLEAN}});
    private Integer id;
    private String firstName;
    private String lastName;
    private String email;
    private String department;
    private String title;
    private Integer age;
    private Double salary;
    private Boolean fullTime;

    public static TypeDesc getTypeDesc() {
        return TYPE_DESC;
    }

    /** Whether the request gave every field (Axis fills in what it finds and leaves the rest unset). */
    boolean isComplete() {
        return id != null && firstName != null && lastName != null && email != null && department != null
            && title != null && age != null && salary != null && fullTime != null;
    }

    public Integer getId() { return id; }
    public void setId(Integer id) { this.id = id; }
    public String getFirstName() { return firstName; }
    public void setFirstName(String firstName) { this.firstName = firstName; }
    public String getLastName() { return lastName; }
    public void setLastName(String lastName) { this.lastName = lastName; }
    public String getEmail() { return email; }
    public void setEmail(String email) { this.email = email; }
    public String getDepartment() { return department; }
    public void setDepartment(String department) { this.department = department; }
    public String getTitle() { return title; }
    public void setTitle(String title) { this.title = title; }
    public Integer getAge() { return age; }
    public void setAge(Integer age) { this.age = age; }
    public Double getSalary() { return salary; }
    public void setSalary(Double salary) { this.salary = salary; }
    public Boolean getFullTime() { return fullTime; }
    public void setFullTime(Boolean fullTime) { this.fullTime = fullTime; }
}
